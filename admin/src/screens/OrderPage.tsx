import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useQuery } from 'urql';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { Section } from '../components/Section';
import { FULFILMENT_COLOR, ORDER_STATUS_COLOR } from '../components/status';
import { useScopes } from '../components/useScopes';
import { useTitle } from '../components/useTitle';
import { dateTime, money } from '../format';
import { OrderPage as OrderPageQuery } from '../graphql/operations';
import { ORDER_WRITE, OrderActions, ShipmentCard } from './OrderActions';
import { Documents } from './order/Documents';
import { Payments } from './order/Payments';

/** How the server writes a personal field for an operator without pii.read (`***`, an email keeping its domain). */
const MASKED = '***';

/** A labelled value of the summary (a description list's term and details). */
function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text component="dd" m={0}>
        {children}
      </Text>
    </div>
  );
}

/** An order, with what can be done to it and its parcels (hidden without order.write): docs/admin-graphql.md's OrderPage query (items, payments, parcels, documents in one request). */
export function OrderPage() {
  const { t, i18n } = useTranslation();
  const id = useParams().id ?? '';
  useTitle(t('order.title', { id }));
  const [{ data, fetching, error }, reexecute] = useQuery({ query: OrderPageQuery, variables: { id } });
  const can = useScopes();
  const canWrite = can(ORDER_WRITE);
  // After each action: the order as it is now (its state decides the buttons shown).
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  const order = data?.read_internal_order;
  const locale = i18n.language;
  const none = <Text c="dimmed">{t('order.noneYet')}</Text>;

  return (
    <Stack>
      <Anchor component={Link} to="/orders" size="sm">
        ← {t('order.back')}
      </Anchor>
      <Title order={1}>{t('order.title', { id })}</Title>
      {error && <ErrorNotice error={error} />}
      {fetching && !order && <Loading />}
      {order && (
        <>
          <Group gap="xs">
            <Badge color={ORDER_STATUS_COLOR[order.status]} variant="light">
              {t(`orders.statuses.${order.status}`)}
            </Badge>
            <Badge color={FULFILMENT_COLOR[order.fulfilment_status]} variant="dot">
              {t(`orders.fulfilment.${order.fulfilment_status}`)}
            </Badge>
          </Group>
          {canWrite && <OrderActions order={order} done={refresh} />}
          <Section title={t('order.summary')}>
            <Paper withBorder p="md">
              <SimpleGrid component="dl" cols={{ base: 1, xs: 2, md: 4 }} m={0}>
                <Field label={t('order.customer')}>
                  {[order.customer.name, order.customer.email, order.customer.phone].filter(Boolean).join(' · ')}
                  {order.customer.email.startsWith(MASKED) && (
                    <Text component="span" display="block" size="xs" c="dimmed">
                      {t('order.masked')}
                    </Text>
                  )}
                </Field>
                <Field label={t('order.store')}>{order.store ? `${order.store.name} (${order.store.handle})` : t('common.empty')}</Field>
                <Field label={t('order.placed')}>{dateTime(order.created_at, locale)}</Field>
                <Field label={t('order.subtotal')}>{money(order.subtotal_amount, order.currency, locale)}</Field>
                <Field label={t('order.discount')}>{money(order.discount_amount, order.currency, locale)}</Field>
                <Field label={t('order.shipping')}>{money(order.shipping_amount, order.currency, locale)}</Field>
                <Field label={t('order.total')}>
                  <strong>{money(order.total_amount, order.currency, locale)}</strong>
                </Field>
              </SimpleGrid>
            </Paper>
          </Section>
          <Section title={t('order.items')}>
            <Table.ScrollContainer minWidth={560}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('order.sku')}</Table.Th>
                    <Table.Th scope="col">{t('order.product')}</Table.Th>
                    <Table.Th scope="col" ta="right">
                      {t('order.qty')}
                    </Table.Th>
                    <Table.Th scope="col" ta="right">
                      {t('order.amount')}
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {order.items.map((item) => (
                    <Table.Tr key={item.code}>
                      <Table.Td ff="monospace">{item.sku?.code ?? item.code}</Table.Td>
                      <Table.Td>{item.sku?.product?.title ?? t('common.empty')}</Table.Td>
                      <Table.Td ta="right">{item.qty}</Table.Td>
                      <Table.Td ta="right">{money(item.line_amount, order.currency, locale)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Section>
          <Section title={t('order.payments')}>
            <Payments order={order} canWrite={canWrite} done={refresh} />
          </Section>
          <Section title={t('order.shipments')}>
            {order.shipments.length === 0
              ? none
              : order.shipments.map((shipment, i) => (
                  <ShipmentCard key={shipment.shipment_id} order={order} shipment={shipment} index={i} canWrite={canWrite} done={refresh} />
                ))}
          </Section>
          <Section title={t('order.documents')}>
            <Documents order={order} canWrite={canWrite} done={refresh} />
          </Section>
        </>
      )}
    </Stack>
  );
}
