import { Alert, Anchor, Badge, Group, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { Pager } from '../components/Pager';
import { FULFILMENT_COLOR, ORDER_STATUS_COLOR } from '../components/status';
import { usePaging } from '../components/paging';
import { useEvents } from '../components/useEvents';
import { useTitle } from '../components/useTitle';
import { dateTime, money } from '../format';
import type { FulfilmentStatus, OrderStatus } from '../gql/graphql';
import { OrdersList } from '../graphql/operations';

const STATUSES: readonly OrderStatus[] = ['pending_payment', 'paid', 'cancelled'];

const FULFILMENTS: readonly FulfilmentStatus[] = ['unfulfilled', 'partially_dispatched', 'dispatched', 'delivered'];

/** A filter's value kept in the URL, or none when the URL names no value of it. */
const oneOf = <V extends string>(values: readonly V[], value: string | null) => values.find((v) => v === value) ?? null;

/** Orders: the `orders` connection (newest first), filtered by status and fulfilment, 50 rows a page; docs/admin-graphql.md's OrdersList columns. */
export function Orders() {
  const { t, i18n } = useTranslation();
  useTitle(t('orders.title'));
  const paging = usePaging();
  const status = oneOf(STATUSES, paging.params.get('status'));
  const fulfilment = oneOf(FULFILMENTS, paging.params.get('fulfilment'));
  const [{ data, fetching, error }, reexecute] = useQuery({ query: OrdersList, variables: { ...paging.window, status, fulfilment } });
  const connection = data?.orders;
  const [arrived, setArrived] = useState<string | null>(null);
  const onFirstPage = !paging.params.get('after') && !paging.params.get('before');

  // Live: a new order brings the first page again (newest first: it is on top) and says so; an order
  // paid or cancelled elsewhere refreshes the page shown. The stream closes when the screen goes.
  useEvents((event) => {
    if (event.type === 'order.created') {
      const orderId = event.payload.order_id;
      setArrived(typeof orderId === 'string' ? orderId : '');
      if (onFirstPage) reexecute({ requestPolicy: 'network-only' });
      else paging.set({});
    } else if (
      event.type === 'order.paid' ||
      event.type === 'order.cancelled' ||
      event.type === 'order.shipment.updated' ||
      event.type === 'shipment.created'
    ) {
      reexecute({ requestPolicy: 'network-only' });
    }
  });

  return (
    <Stack>
      <Title order={1}>{t('orders.title')}</Title>
      <Group align="flex-end">
        <NativeSelect
          label={t('orders.status')}
          value={status ?? ''}
          onChange={(e) => paging.set({ status: e.currentTarget.value || null })}
          data={[{ value: '', label: t('common.all') }, ...STATUSES.map((s) => ({ value: s, label: t(`orders.statuses.${s}`) }))]}
        />
        <NativeSelect
          label={t('orders.fulfilmentFilter')}
          value={fulfilment ?? ''}
          onChange={(e) => paging.set({ fulfilment: e.currentTarget.value || null })}
          data={[{ value: '', label: t('common.all') }, ...FULFILMENTS.map((f) => ({ value: f, label: t(`orders.fulfilment.${f}`) }))]}
        />
      </Group>
      {arrived !== null && (
        <Alert color="blue" role="status" withCloseButton closeButtonLabel={t('orders.live.dismiss')} onClose={() => setArrived(null)}>
          {arrived ? (
            <>
              {t('orders.live.newOrder')}{' '}
              <Anchor component={Link} to={`/orders/${encodeURIComponent(arrived)}`} ff="monospace">
                {arrived}
              </Anchor>
            </>
          ) : (
            t('orders.live.newOrder')
          )}
        </Alert>
      )}
      {error && <ErrorNotice error={error} />}
      {fetching && !connection ? (
        <Loading />
      ) : connection ? (
        <>
          {connection.totalCount !== null && (
            <Text size="sm" c="dimmed" role="status">
              {t('orders.total', { count: connection.totalCount })}
            </Text>
          )}
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover aria-busy={fetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('orders.columns.order')}</Table.Th>
                  <Table.Th scope="col">{t('orders.columns.store')}</Table.Th>
                  <Table.Th scope="col">{t('orders.columns.status')}</Table.Th>
                  <Table.Th scope="col">{t('orders.columns.fulfilment')}</Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('orders.columns.total')}
                  </Table.Th>
                  <Table.Th scope="col">{t('orders.columns.created')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {connection.edges.map(({ node }) => (
                  <Table.Tr key={node.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/orders/${encodeURIComponent(node.id)}`} ff="monospace" size="sm">
                        {node.id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{node.store?.name ?? t('common.empty')}</Table.Td>
                    <Table.Td>
                      <Badge color={ORDER_STATUS_COLOR[node.status]} variant="light">
                        {t(`orders.statuses.${node.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={FULFILMENT_COLOR[node.fulfilment_status]} variant="dot">
                        {t(`orders.fulfilment.${node.fulfilment_status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">{money(node.total_amount, node.currency, i18n.language)}</Table.Td>
                    <Table.Td>{dateTime(node.created_at, i18n.language)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {connection.edges.length === 0 && <Text>{t('orders.none')}</Text>}
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
