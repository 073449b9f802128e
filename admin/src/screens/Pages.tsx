import { Anchor, Badge, Button, Group, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import type { CombinedError } from '@urql/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClient, useQuery } from 'urql';
import { ErrorNotice } from '../components/ErrorNotice';
import { ConnectionTable } from '../components/ConnectionTable';
import { usePaging } from '../components/paging';
import { useDialog } from '../components/useDialog';
import { useScopes } from '../components/useScopes';
import { useTitle } from '../components/useTitle';
import { dateTime } from '../format';
import { type Refusal, refusals } from '../graphql/errors';
import { PageArchive, PageUnarchive, PageUpdate, SettingsPages } from '../graphql/operations';
import type { PageFilterStatus } from '../gql/graphql';
import { type Page, PageEditorDialog } from './PageEditor';

/** The scope creating, changing and archiving pages needs (the server checks it anyway; the list needs content.read). */
export const PAGES_WRITE = 'content.write';

const STATUSES: readonly PageFilterStatus[] = ['published', 'draft', 'archived'];
const statusOf = (value: string | null): PageFilterStatus | undefined => STATUSES.find((s) => s === value);

/** Settings → Institutional pages: the `pages` connection (by title, 50 a page) by status; the editor with its preview; publish, archive. */
export function Pages() {
  const { t, i18n } = useTranslation();
  useTitle(t('pages.title'));
  const can = useScopes();
  const client = useClient();
  const paging = usePaging();
  const status = statusOf(paging.params.get('status'));
  const [{ data, fetching, error }, reexecute] = useQuery({ query: SettingsPages, variables: { ...paging.window, status } });
  const connection = data?.pages;
  const editing = useDialog<Page | 'new'>();
  const [errors, setErrors] = useState<Refusal[]>([]);
  const canWrite = can(PAGES_WRITE);
  const refresh = () => reexecute({ requestPolicy: 'network-only' });

  // Each row action is one command; its refusal is shown above the list, the list read again after a success.
  const act = async (run: () => Promise<{ error?: CombinedError }>) => {
    setErrors([]);
    const result = await run();
    if (result.error) setErrors(refusals(result.error));
    else refresh();
  };
  const publish = (page: Page, published: boolean) => act(() => client.mutation(PageUpdate, { input: { page_id: page.id, published } }).toPromise());
  const archive = (page: Page) => act(() => client.mutation(page.archived ? PageUnarchive : PageArchive, { id: page.id }).toPromise());

  return (
    <Stack>
      <Anchor component={Link} to="/settings" size="sm">
        {t('pages.back')}
      </Anchor>
      <Title order={1}>{t('pages.title')}</Title>
      <Text>{t('pages.intro')}</Text>
      <Group align="flex-end">
        <NativeSelect
          label={t('pages.status')}
          value={status ?? ''}
          onChange={(e) => paging.set({ status: e.currentTarget.value || null })}
          data={[{ value: '', label: t('pages.statuses.current') }, ...STATUSES.map((s) => ({ value: s, label: t(`pages.statuses.${s}`) }))]}
        />
        {canWrite && <Button onClick={() => editing.open('new')}>{t('pages.new')}</Button>}
      </Group>
      <ErrorNotice list={errors} />
      {error && <ErrorNotice error={error} />}
      <ConnectionTable
        connection={connection}
        fetching={fetching}
        paging={paging}
        total={(count) => t('pages.total', { count })}
        none={t('pages.none')}
        columns={[
          t('pages.columns.title'),
          t('pages.columns.slug'),
          t('pages.columns.store'),
          t('pages.columns.status'),
          t('pages.columns.updated'),
          ...(canWrite ? [t('pages.columns.actions')] : []),
        ]}
        cells={(node) => (
          <>
            <Table.Td>{node.title}</Table.Td>
            <Table.Td ff="monospace">{node.slug}</Table.Td>
            <Table.Td>{node.store?.name ?? node.store_id}</Table.Td>
            <Table.Td>
              <Badge variant="light" color={node.archived ? 'gray' : node.published ? 'green' : 'yellow'}>
                {t(node.archived ? 'pages.statuses.archived' : node.published ? 'pages.statuses.published' : 'pages.statuses.draft')}
              </Badge>
            </Table.Td>
            <Table.Td>{dateTime(node.updated_at, i18n.language)}</Table.Td>
            {canWrite && (
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  {!node.archived && (
                    <>
                      <Button size="xs" variant="light" aria-label={t('pages.editNamed', { title: node.title })} onClick={() => editing.open(node)}>
                        {t('pages.edit')}
                      </Button>
                      <Button
                        size="xs"
                        variant="light"
                        aria-label={t(node.published ? 'pages.unpublishNamed' : 'pages.publishNamed', { title: node.title })}
                        onClick={() => publish(node, !node.published)}
                      >
                        {t(node.published ? 'pages.unpublish' : 'pages.publish')}
                      </Button>
                    </>
                  )}
                  <Button
                    size="xs"
                    variant="light"
                    color={node.archived ? undefined : 'red'}
                    aria-label={t(node.archived ? 'pages.unarchiveNamed' : 'pages.archiveNamed', { title: node.title })}
                    onClick={() => archive(node)}
                  >
                    {t(node.archived ? 'pages.unarchive' : 'pages.archive')}
                  </Button>
                </Group>
              </Table.Td>
            )}
          </>
        )}
      />
      <PageEditorDialog
        page={editing.item}
        opened={editing.opened}
        close={editing.close}
        saved={() => {
          editing.close();
          refresh();
        }}
      />
    </Stack>
  );
}
