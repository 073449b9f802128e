import { Alert, Button, Group, NativeSelect, NumberInput, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient, useQuery } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { money } from '../../format';
import type { ShippingQuoteQuery } from '../../gql/graphql';
import type { Refusal } from '../../graphql/errors';
import { QuoteSkus, ShippingQuote } from '../../graphql/operations';
import { refusalsOf } from '../settings/forms';

/** A cart's lines at most (the quote's bound: 1 to 100 distinct SKUs, 1 to 1000 of each). */
const MAX_LINES = 100;
const MAX_QTY = 1000;
const QUOTE_FIELDS = new Set(['store_id', 'postal_code', 'lines']);

/** The input a refusal's field is shown on: `lines[2].qty` and `items` are about the cart. */
const inputOf = (field: string) => (field === 'items' || /^lines(\[|$)/.test(field) ? 'lines' : field);

type Line = { skuId: string; label: string; qty: number };
type Quote = NonNullable<ShippingQuoteQuery['read_internal_shipping_quote']>;

/** Finds SKUs by code, name or EAN (nothing typed: the newest 20) and adds one to the cart with a quantity. */
function LinePicker({ add, error }: { add: (line: Line) => void; error?: string }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [searched, setSearched] = useState<string | null>(null);
  const [skuId, setSkuId] = useState('');
  const [qty, setQty] = useState<number | string>(1);
  const [{ data, fetching, error: searchError }] = useQuery({ query: QuoteSkus, variables: { q: searched || undefined }, pause: searched === null });
  const found = data?.skus?.edges.map(({ node }) => node) ?? [];
  const labelOf = (sku: (typeof found)[number]) =>
    `${sku.code} · ${sku.product?.title ?? sku.name ?? ''} (${sku.weight_grams === null ? t('shippingSettings.quote.noWeight') : `${sku.weight_grams} g`})`;
  const search = () => {
    setSkuId('');
    setSearched(q.trim());
  };
  const chosen = found.find((s) => s.id === (skuId || found[0]?.id));
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="sm">
        <TextInput
          label={t('shippingSettings.quote.findSku')}
          description={t('shippingSettings.quote.findSkuHint')}
          maxLength={200}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              search();
            }
          }}
          error={error}
        />
        <Button variant="default" onClick={search} loading={fetching}>
          {t('shippingSettings.quote.find')}
        </Button>
      </Group>
      {searchError && <ErrorNotice error={searchError} />}
      {searched !== null && !fetching && found.length === 0 && !searchError && <Text size="sm">{t('shippingSettings.quote.noSku')}</Text>}
      {found.length > 0 && (
        <Group align="flex-end" gap="sm">
          <NativeSelect
            label={t('shippingSettings.quote.sku')}
            value={chosen?.id ?? ''}
            onChange={(e) => setSkuId(e.currentTarget.value)}
            data={found.map((s) => ({ value: s.id, label: labelOf(s) }))}
          />
          <NumberInput
            label={t('shippingSettings.quote.qty')}
            min={1}
            max={MAX_QTY}
            allowDecimal={false}
            allowNegative={false}
            value={qty}
            onChange={setQty}
            w={120}
          />
          <Button variant="default" disabled={!chosen} onClick={() => chosen && add({ skuId: chosen.id, label: labelOf(chosen), qty: Number(qty) || 1 })}>
            {t('shippingSettings.quote.addLine')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** What the quote answered: the methods offered with their price, and those refused with why. */
function QuoteAnswer({ quote }: { quote: Quote }) {
  const { t, i18n } = useTranslation();
  const grams = (g: number | null | undefined) => (g === null || g === undefined ? t('shippingSettings.quote.unknown') : `${g} g`);
  return (
    <Stack gap="xs" role="status" aria-live="polite">
      <Text size="sm">
        {t('shippingSettings.quote.summary', {
          code: quote.postal_code,
          count: quote.zone_ids.length,
          weight: grams(quote.parcel.weight_grams),
        })}
      </Text>
      {quote.methods.length > 0 ? (
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-label={t('shippingSettings.quote.offered')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('shippingSettings.methods.columns.name')}</Table.Th>
                <Table.Th scope="col">{t('shippingSettings.methods.columns.kind')}</Table.Th>
                <Table.Th scope="col">{t('shippingSettings.quote.billable')}</Table.Th>
                <Table.Th scope="col">{t('shippingSettings.quote.delivery')}</Table.Th>
                <Table.Th scope="col" ta="right">
                  {t('shippingSettings.quote.price')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {quote.methods.map((m) => (
                <Table.Tr key={m.method_id}>
                  <Table.Td>{m.name}</Table.Td>
                  <Table.Td>{t(`shippingSettings.kinds.${m.kind}`)}</Table.Td>
                  <Table.Td>{grams(m.billable_weight_grams)}</Table.Td>
                  <Table.Td>{m.estimated_delivery_date ?? t('shippingSettings.quote.unknown')}</Table.Td>
                  <Table.Td ta="right">{quote.currency ? money(m.shipping_amount, quote.currency, i18n.language) : m.shipping_amount}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Alert color="yellow">{t('shippingSettings.quote.noneOffered')}</Alert>
      )}
      {quote.refused.length > 0 && (
        <Stack gap={4}>
          <Title order={4} size="h5">
            {t('shippingSettings.quote.refused')}
          </Title>
          {quote.refused.map((r) => (
            <Text size="sm" key={r.method_id}>
              {t('shippingSettings.quote.refusedLine', { name: r.name, reason: t(`shippingSettings.reasons.${r.reason}`) })}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The quote tester: a store, a destination postal code and a cart of SKUs; it asks read_internal_shipping_quote what checkout would offer. */
export function QuoteTester({ stores }: { stores: Array<{ id: string; name: string; handle: string }> }) {
  const { t } = useTranslation();
  const client = useClient();
  const [storeId, setStoreId] = useState('');
  const [postalCode, setPostalCode] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [busy, setBusy] = useState(false);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [others, setOthers] = useState<Refusal[]>([]);
  const store = storeId || stores[0]?.id || '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const input = { store_id: store, postal_code: postalCode, lines: lines.map((l) => ({ sku_id: l.skuId, qty: l.qty })) };
    // Asked anew each time (no kept answer): the methods may have changed since.
    const result = await client.query(ShippingQuote, { input }, { requestPolicy: 'network-only' }).toPromise();
    setBusy(false);
    setQuote(result.data?.read_internal_shipping_quote ?? null);
    const found = refusalsOf(result.error, (field) => QUOTE_FIELDS.has(inputOf(field)));
    setFields(Object.fromEntries(Object.entries(found.fields).map(([field, message]) => [inputOf(field), message])));
    setOthers(found.others);
  };
  const add = (line: Line) => {
    const kept = lines.filter((l) => l.skuId !== line.skuId);
    setLines([...kept, line].slice(0, MAX_LINES));
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="quote-tester">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h3" id="quote-tester">
            {t('shippingSettings.quote.title')}
          </Title>
          <Text size="sm">{t('shippingSettings.quote.intro')}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NativeSelect
              label={t('shippingSettings.quote.store')}
              value={store}
              onChange={(e) => setStoreId(e.currentTarget.value)}
              data={stores.map((s) => ({ value: s.id, label: `${s.name} (${s.handle})` }))}
              error={fields.store_id}
            />
            <TextInput
              label={t('shippingSettings.quote.postalCode')}
              description={t('shippingSettings.zones.codeHint')}
              required
              maxLength={32}
              value={postalCode}
              onChange={(e) => setPostalCode(e.currentTarget.value)}
              error={fields.postal_code}
            />
          </SimpleGrid>
          <LinePicker add={add} error={fields.lines} />
          {lines.length > 0 && (
            <Table aria-label={t('shippingSettings.quote.cart')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('shippingSettings.quote.sku')}</Table.Th>
                  <Table.Th scope="col">{t('shippingSettings.quote.qty')}</Table.Th>
                  <Table.Th scope="col">{t('shippingSettings.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {lines.map((l) => (
                  <Table.Tr key={l.skuId}>
                    <Table.Td>{l.label}</Table.Td>
                    <Table.Td>{l.qty}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={t('shippingSettings.quote.removeLine', { sku: l.label })}
                        onClick={() => setLines(lines.filter((x) => x.skuId !== l.skuId))}
                      >
                        {t('shippingSettings.quote.remove')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <ErrorNotice list={others} />
          <Group>
            <Button type="submit" loading={busy} disabled={stores.length === 0}>
              {t('shippingSettings.quote.ask')}
            </Button>
          </Group>
          {quote && <QuoteAnswer quote={quote} />}
        </Stack>
      </form>
    </Paper>
  );
}
