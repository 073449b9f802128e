import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { Pager } from '../components/Pager';
import { usePaging } from '../components/paging';
import { useScopes } from '../components/useScopes';
import { useTitle } from '../components/useTitle';
import { money } from '../format';
import { ShippingSettings as ShippingSettingsQuery, ShippingZonesList } from '../graphql/operations';
import { SHIPPING_WRITE } from '../scopes';
import { type Method, MethodForm, type ZoneChoice } from './shipping/MethodForm';
import { QuoteTester } from './shipping/QuoteTester';
import { ZoneForm } from './shipping/ZoneForm';

/** Zones: the `shipping_zones` connection by name, 50 a page (its place in the URL), and New zone for operators holding shipping.write. */
function Zones({ canWrite, changed }: { canWrite: boolean; changed: () => void }) {
  const { t } = useTranslation();
  const paging = usePaging();
  const [{ data, fetching, error }, reexecute] = useQuery({ query: ShippingZonesList, variables: paging.window });
  const [creating, setCreating] = useState(false);
  const connection = data?.shipping_zones;
  return (
    <Stack component="section" aria-labelledby="zones" gap="sm">
      <Title order={2} size="h3" id="zones">
        {t('shippingSettings.zones.title')}
      </Title>
      <Text size="sm">{t('shippingSettings.zones.intro')}</Text>
      {canWrite &&
        (creating ? (
          <ZoneForm
            cancel={() => setCreating(false)}
            created={() => {
              setCreating(false);
              reexecute({ requestPolicy: 'network-only' });
              changed();
            }}
          />
        ) : (
          <Group>
            <Button onClick={() => setCreating(true)}>{t('shippingSettings.zones.new')}</Button>
          </Group>
        ))}
      {error && <ErrorNotice error={error} />}
      {fetching && !connection ? (
        <Loading />
      ) : connection ? (
        <>
          <Table striped aria-labelledby="zones" aria-busy={fetching}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('shippingSettings.zones.name')}</Table.Th>
                <Table.Th scope="col">{t('shippingSettings.zones.from')}</Table.Th>
                <Table.Th scope="col">{t('shippingSettings.zones.to')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {connection.edges.map(({ node }) => (
                <Table.Tr key={node.id}>
                  <Table.Td>{node.name}</Table.Td>
                  <Table.Td ff="monospace">{node.postal_code_from}</Table.Td>
                  <Table.Td ff="monospace">{node.postal_code_to}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {connection.edges.length === 0 && <Text>{t('shippingSettings.zones.none')}</Text>}
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

/** A method's charge in words: free, a flat price, or its bands (up to N g: price). */
function useCharge() {
  const { t, i18n } = useTranslation();
  return (rates: Method['rates']) => {
    if (!rates) return t('shippingSettings.rates.free');
    if (rates.flat_amount !== null && rates.flat_amount !== undefined) return money(rates.flat_amount, rates.currency, i18n.language);
    return (rates.bands ?? [])
      .map((b) => t('shippingSettings.rates.band', { grams: b.up_to_grams, price: money(b.amount, rates.currency, i18n.language) }))
      .join('; ');
  };
}

function Methods({ methods, zones, canWrite, changed }: { methods: Method[]; zones: ZoneChoice[]; canWrite: boolean; changed: () => void }) {
  const { t } = useTranslation();
  const charge = useCharge();
  // The method being edited ('new': the New method form).
  const [editing, setEditing] = useState<string | null>(null);
  const zoneName = new Map(zones.map((z) => [z.id, z.name]));
  const done = () => {
    setEditing(null);
    changed();
  };
  const form = (method?: Method) => <MethodForm key={method?.id ?? 'new'} method={method} zones={zones} saved={done} cancel={() => setEditing(null)} />;
  return (
    <Stack component="section" aria-labelledby="methods" gap="sm">
      <Title order={2} size="h3" id="methods">
        {t('shippingSettings.methods.title')}
      </Title>
      <Text size="sm">{t('shippingSettings.methods.intro')}</Text>
      {canWrite &&
        (editing === 'new' ? (
          form()
        ) : (
          <Group>
            <Button onClick={() => setEditing('new')}>{t('shippingSettings.methods.new')}</Button>
          </Group>
        ))}
      {editing && editing !== 'new' && form(methods.find((m) => m.id === editing))}
      <Table.ScrollContainer minWidth={720}>
        <Table striped aria-labelledby="methods">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('shippingSettings.methods.columns.name')}</Table.Th>
              <Table.Th scope="col">{t('shippingSettings.methods.columns.kind')}</Table.Th>
              <Table.Th scope="col">{t('shippingSettings.methods.columns.status')}</Table.Th>
              <Table.Th scope="col">{t('shippingSettings.methods.columns.zones')}</Table.Th>
              <Table.Th scope="col">{t('shippingSettings.methods.columns.charge')}</Table.Th>
              {canWrite && <Table.Th scope="col">{t('shippingSettings.actions')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {methods.map((m) => (
              <Table.Tr key={m.id}>
                <Table.Td>{m.name}</Table.Td>
                <Table.Td>{t(`shippingSettings.kinds.${m.kind}`)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={m.active ? 'green' : 'gray'}>
                    {m.active ? t('shippingSettings.methods.active') : t('shippingSettings.methods.inactive')}
                  </Badge>
                </Table.Td>
                <Table.Td>{m.zone_ids.length ? m.zone_ids.map((id) => zoneName.get(id) ?? id).join(', ') : t('shippingSettings.methods.everyZone')}</Table.Td>
                <Table.Td>{charge(m.rates)}</Table.Td>
                {canWrite && (
                  <Table.Td>
                    <Button size="xs" variant="light" aria-label={t('shippingSettings.methods.editNamed', { name: m.name })} onClick={() => setEditing(m.id)}>
                      {t('shippingSettings.methods.edit')}
                    </Button>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {methods.length === 0 && <Text>{t('shippingSettings.methods.none')}</Text>}
    </Stack>
  );
}

/** Settings → Shipping: zones, methods (with what they charge) and the quote tester. Reads need logistics.read; changes shipping.write. */
export function ShippingSettings() {
  const { t } = useTranslation();
  useTitle(t('shippingSettings.title'));
  const can = useScopes();
  const [{ data, fetching, error }, reexecute] = useQuery({ query: ShippingSettingsQuery });
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  const canWrite = can(SHIPPING_WRITE);
  const zones = data?.shipping_zones?.edges.map(({ node }) => node) ?? [];
  return (
    <Stack>
      <Anchor component={Link} to="/settings" size="sm">
        {t('shippingSettings.back')}
      </Anchor>
      <Title order={1}>{t('shippingSettings.title')}</Title>
      <Zones canWrite={canWrite} changed={refresh} />
      {error && <ErrorNotice error={error} />}
      {fetching && !data ? (
        <Loading />
      ) : data ? (
        <>
          <Methods methods={data.shipping_methods?.edges.map(({ node }) => node) ?? []} zones={zones} canWrite={canWrite} changed={refresh} />
          <QuoteTester stores={data.stores?.edges.map(({ node }) => node) ?? []} />
        </>
      ) : null}
    </Stack>
  );
}
