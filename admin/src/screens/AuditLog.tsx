import { Anchor, Badge, Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { PAGE_SIZE } from '../components/paging';
import { useTitle } from '../components/useTitle';
import { dateTime } from '../format';
import { AuditLog as AuditLogQuery } from '../graphql/operations';

/** The subgraphs, each keeping its own trail (`<subgraph>_audit`). */
const SUBGRAPHS = ['identity', 'catalog', 'orders', 'content'] as const;
type Subgraph = (typeof SUBGRAPHS)[number];
/** How deep the merged view pages: each subgraph is asked for page × 50 entries, at most 1,000 (the reads' MERGED_READ_DEPTH). */
const MERGED_DEPTH = 1000;

interface Entry {
  subgraph: Subgraph;
  actor_id: string;
  actor_name: string;
  operation: string;
  outcome: string;
  request_id: string;
  at: string;
}

/**
 * Developers → Audit log: every subgraph's trail, newest first, 50 a page, filtered by subgraph and
 * operation (in the URL). One subgraph is paged by its own read; all of them are merged here as the
 * REST `read.internal.audit` merges them: each asked for its newest page × 50, sorted by time.
 */
export function AuditLog() {
  const { t, i18n } = useTranslation();
  useTitle(t('audit.title'));
  const [params, setParams] = useSearchParams();
  const only = SUBGRAPHS.find((s) => s === params.get('subgraph'));
  const operation = params.get('operation') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [typed, setTyped] = useState(operation);
  const window = only ? { limit: PAGE_SIZE, page } : { limit: PAGE_SIZE * page, page: 1 };
  const input = { ...window, ...(operation ? { operation } : {}) };
  const asked = (s: Subgraph) => !only || only === s;
  const [{ data, fetching, error }] = useQuery({
    query: AuditLogQuery,
    variables: {
      identity: asked('identity'),
      catalog: asked('catalog'),
      orders: asked('orders'),
      content: asked('content'),
      identityInput: input,
      catalogInput: input,
      ordersInput: input,
      contentInput: input,
    },
  });
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next);
  };

  const parts = data
    ? ([
        ['identity', data.identity_audit],
        ['catalog', data.catalog_audit],
        ['orders', data.orders_audit],
        ['content', data.content_audit],
      ] as const)
    : [];
  const total = parts.reduce((sum, [, part]) => sum + (part?.total ?? 0), 0);
  const entries: Entry[] = parts
    .flatMap(([subgraph, part]) => (part?.items ?? []).map((item) => ({ subgraph, ...item })))
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(only ? 0 : (page - 1) * PAGE_SIZE, only ? PAGE_SIZE : page * PAGE_SIZE);
  const hasNext = page * PAGE_SIZE < total && (only !== undefined || (page + 1) * PAGE_SIZE <= MERGED_DEPTH);
  const filter = (e: FormEvent) => {
    e.preventDefault();
    set({ operation: typed.trim() || null, page: null });
  };

  return (
    <Stack>
      <Anchor component={Link} to="/settings" size="sm">
        {t('apiKeys.back')}
      </Anchor>
      <Title order={1}>{t('audit.title')}</Title>
      <Text>{t('audit.intro')}</Text>
      <Group align="flex-end" component="form" onSubmit={filter}>
        <NativeSelect
          label={t('audit.subgraph')}
          value={only ?? ''}
          onChange={(e) => set({ subgraph: e.currentTarget.value || null, page: null })}
          data={[{ value: '', label: t('common.all') }, ...SUBGRAPHS.map((s) => ({ value: s, label: t(`audit.subgraphs.${s}`) }))]}
        />
        <TextInput
          label={t('audit.operation')}
          description={t('audit.operationHint')}
          maxLength={200}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
        />
        <Button type="submit" variant="default">
          {t('audit.filter')}
        </Button>
      </Group>
      {error && <ErrorNotice error={error} />}
      {fetching && !data ? (
        <Loading />
      ) : data ? (
        <>
          <Text size="sm" c="dimmed" role="status">
            {t('audit.total', { count: total })}
          </Text>
          <Table.ScrollContainer minWidth={800}>
            <Table striped aria-busy={fetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('audit.columns.at')}</Table.Th>
                  <Table.Th scope="col">{t('audit.columns.subgraph')}</Table.Th>
                  <Table.Th scope="col">{t('audit.columns.operation')}</Table.Th>
                  <Table.Th scope="col">{t('audit.columns.actor')}</Table.Th>
                  <Table.Th scope="col">{t('audit.columns.outcome')}</Table.Th>
                  <Table.Th scope="col">{t('audit.columns.request')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((entry) => (
                  <Table.Tr key={`${entry.subgraph}|${entry.request_id}|${entry.operation}|${entry.at}`}>
                    <Table.Td>{dateTime(entry.at, i18n.language)}</Table.Td>
                    <Table.Td>{t(`audit.subgraphs.${entry.subgraph}`)}</Table.Td>
                    <Table.Td ff="monospace">{entry.operation}</Table.Td>
                    <Table.Td>{entry.actor_name}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={entry.outcome === 'ok' ? 'green' : 'red'}>
                        {entry.outcome}
                      </Badge>
                    </Table.Td>
                    <Table.Td ff="monospace">{entry.request_id}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {entries.length === 0 && <Text>{t('audit.none')}</Text>}
          <Group component="nav" aria-label={t('common.pages')} justify="flex-end" gap="xs">
            <Button variant="default" disabled={page <= 1} onClick={() => set({ page: page > 2 ? String(page - 1) : null })}>
              {t('common.previous')}
            </Button>
            <Button variant="default" disabled={!hasNext} onClick={() => set({ page: String(page + 1) })}>
              {t('common.next')}
            </Button>
          </Group>
        </>
      ) : null}
    </Stack>
  );
}
