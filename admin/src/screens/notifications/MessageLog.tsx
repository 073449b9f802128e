import { Alert, Badge, Button, Group, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { Pager } from '../../components/Pager';
import { usePaging } from '../../components/paging';
import { dateTime } from '../../format';
import type { NotificationStatus } from '../../gql/graphql';
import { type Refusal, refusals } from '../../graphql/errors';
import { NotificationLog, NotificationResend } from '../../graphql/operations';
import { MESSAGE_TYPES, typeLabel } from './labels';

const STATUSES: readonly NotificationStatus[] = ['pending', 'sent', 'failed'];
const STATUS_COLOR: Record<NotificationStatus, string> = { pending: 'yellow', sent: 'green', failed: 'red' };

/**
 * The message log: the `notifications` connection (newest first, 50 a page; the recipient masked
 * without pii.read), filtered by type and status in the URL; resend repeats a record's snapshot as a
 * new record (an authentication code has none and is not offered).
 */
export function MessageLog({ canResend }: { canResend: boolean }) {
  const { t, i18n } = useTranslation();
  const paging = usePaging();
  const type = paging.params.get('type');
  const status = STATUSES.find((s) => s === paging.params.get('status')) ?? null;
  const filter = { ...(type ? { type_key: type } : {}), ...(status ? { status } : {}) };
  const [{ data, fetching, error }, reexecute] = useQuery({ query: NotificationLog, variables: { ...paging.window, filter } });
  const connection = data?.notifications;
  const [resent, resend] = useMutation(NotificationResend);
  const [errors, setErrors] = useState<Refusal[]>([]);
  const [done, setDone] = useState<string | null>(null);
  const refresh = () => reexecute({ requestPolicy: 'network-only' });

  const again = async (id: string) => {
    setErrors([]);
    setDone(null);
    const result = await resend({ id });
    if (result.error) setErrors(refusals(result.error));
    else setDone(result.data?.notification_resend?.notification_id ?? '');
    refresh();
  };

  return (
    <Stack component="section" aria-labelledby="message-log">
      <Title order={2} size="h3" id="message-log">
        {t('notifications.log.title')}
      </Title>
      <Group align="flex-end">
        <NativeSelect
          label={t('notifications.log.type')}
          value={type ?? ''}
          onChange={(e) => paging.set({ type: e.currentTarget.value || null })}
          data={[{ value: '', label: t('common.all') }, ...MESSAGE_TYPES.map((key) => ({ value: key, label: typeLabel(t, key) }))]}
        />
        <NativeSelect
          label={t('notifications.log.status')}
          value={status ?? ''}
          onChange={(e) => paging.set({ status: e.currentTarget.value || null })}
          data={[{ value: '', label: t('common.all') }, ...STATUSES.map((s) => ({ value: s, label: t(`notifications.statuses.${s}`) }))]}
        />
        <Button variant="default" onClick={refresh} loading={fetching}>
          {t('notifications.log.refresh')}
        </Button>
      </Group>
      <ErrorNotice list={errors} />
      {done !== null && (
        <Alert color="green" role="status">
          {t('notifications.log.resent', { id: done })}
        </Alert>
      )}
      {error && <ErrorNotice error={error} />}
      {fetching && !connection ? (
        <Loading />
      ) : connection ? (
        <>
          {connection.totalCount !== null && (
            <Text size="sm" c="dimmed">
              {t('notifications.log.total', { count: connection.totalCount })}
            </Text>
          )}
          <Table.ScrollContainer minWidth={800}>
            <Table striped aria-busy={fetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('notifications.log.columns.created')}</Table.Th>
                  <Table.Th scope="col">{t('notifications.log.columns.type')}</Table.Th>
                  <Table.Th scope="col">{t('notifications.log.columns.channel')}</Table.Th>
                  <Table.Th scope="col">{t('notifications.log.columns.recipient')}</Table.Th>
                  <Table.Th scope="col">{t('notifications.log.columns.status')}</Table.Th>
                  <Table.Th scope="col">{t('notifications.log.columns.attempts')}</Table.Th>
                  {canResend && <Table.Th scope="col">{t('notifications.log.columns.actions')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {connection.edges.map(({ node }) => (
                  <Table.Tr key={node.id}>
                    <Table.Td>{dateTime(node.created_at, i18n.language)}</Table.Td>
                    <Table.Td>
                      {typeLabel(t, node.type_key)}
                      {node.resent_from && (
                        <Text size="xs" c="dimmed">
                          {t('notifications.log.resendOf', { id: node.resent_from })}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ff="monospace">{node.channel_key}</Table.Td>
                    <Table.Td>{node.recipient}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={STATUS_COLOR[node.status]}>
                        {t(`notifications.statuses.${node.status}`)}
                      </Badge>
                      {node.last_error && (
                        <Text size="xs" c="red.9">
                          {node.last_error}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{node.attempts}</Table.Td>
                    {canResend && (
                      <Table.Td>
                        {node.body_stored && (
                          <Button
                            size="xs"
                            variant="light"
                            loading={resent.fetching}
                            aria-label={t('notifications.log.resendNamed', { type: typeLabel(t, node.type_key), recipient: node.recipient })}
                            onClick={() => again(node.id)}
                          >
                            {t('notifications.log.resend')}
                          </Button>
                        )}
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {connection.edges.length === 0 && <Text>{t('notifications.log.none')}</Text>}
          <Pager
            hasPrevious={connection.pageInfo.hasPreviousPage}
            hasNext={connection.pageInfo.hasNextPage}
            onPrevious={() => paging.previous(connection.pageInfo.startCursor)}
            onNext={() => paging.next(connection.pageInfo.endCursor)}
          />
        </>
      ) : null}
    </Stack>
  );
}
