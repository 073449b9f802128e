import { Anchor, Badge, Button, Checkbox, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import type { CombinedError } from '@urql/core';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { useTitle } from '../components/useTitle';
import { dateTime, money } from '../format';
import type { ProductPageQuery, ProductStatus } from '../gql/graphql';
import { byField, type Refusal, refusals } from '../graphql/errors';
import {
  AdjustStock,
  CreateProduct,
  CreateSku,
  ProductChoices,
  ProductPage,
  PublishProduct,
  UnpublishProduct,
  UpdateProduct,
  UpdateSku,
} from '../graphql/operations';

const STATUSES: readonly ProductStatus[] = ['draft', 'active', 'archived'];
type Product = NonNullable<ProductPageQuery['catalog_product']>;
type Sku = Product['skus'][number];
type Choices = {
  brands: Array<{ id: string; name: string }>;
  categories: Array<{ id: string; path: string; name: string }>;
  stores: Array<{ id: string; handle: string; name: string }>;
  warehouses: Array<{ id: string; code: string; name: string }>;
};

/** A mutation's outcome split for a form: refusals by field (shown on their input) and the rest (an alert). */
function outcome(error: CombinedError | undefined): { fields: Record<string, string>; others: Refusal[] } {
  return error ? byField(refusals(error)) : { fields: {}, others: [] };
}

/** An integer typed into a field, or undefined when the field is empty; a value that is not an integer is sent as typed (the server names it). */
function integer(value: string): number | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : (trimmed as unknown as number);
}
const nullableInteger = (value: string) => integer(value) ?? null;
const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack component="section" gap="xs">
      <Title order={2} size="h3">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** Title, handle, description, status and brand: creates the product, or updates it. */
function ProductForm({ product, choices, onSaved }: { product?: Product; choices?: Choices; onSaved: (productId: string) => void }) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(product?.title ?? '');
  const [handle, setHandle] = useState(product?.handle ?? '');
  const [description, setDescription] = useState(product?.description ?? '');
  const [status, setStatus] = useState<ProductStatus>(product?.status ?? 'draft');
  const [brandId, setBrandId] = useState(product?.brand_id ?? '');
  const [categoryIds, setCategoryIds] = useState<string[]>(product?.categories.map((c) => c.category_id) ?? []);
  const [created, create] = useMutation(CreateProduct);
  const [updated, update] = useMutation(UpdateProduct);
  const [saved, setSaved] = useState(false);
  const state = product ? updated : created;
  const { fields, others } = outcome(state.error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    // The primary category stays first (none marked: the first is).
    const primary = product?.categories.find((c) => c.is_primary)?.category_id;
    const ordered = primary && categoryIds.includes(primary) ? [primary, ...categoryIds.filter((c) => c !== primary)] : categoryIds;
    const fields = {
      title: title.trim(),
      handle: handle.trim(),
      description: description.trim() || null,
      status,
      brand_id: brandId || null,
      categories: ordered.map((category_id) => ({ category_id })),
    };
    if (product) {
      const result = await update({ input: { product_id: product.id, ...fields } });
      if (result.data?.catalog_product_update) {
        setSaved(true);
        onSaved(product.id);
      }
    } else {
      const result = await create({ input: fields });
      const id = result.data?.catalog_product_create?.product_id;
      if (id) onSaved(id);
    }
  };

  return (
    <Stack component="form" onSubmit={submit} gap="sm" aria-label={t('product.details')}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t('product.fields.title')} required value={title} onChange={(e) => setTitle(e.currentTarget.value)} error={fields.title} />
        <TextInput
          label={t('product.fields.handle')}
          description={t('product.fields.handleHint')}
          required
          value={handle}
          onChange={(e) => setHandle(e.currentTarget.value)}
          error={fields.handle}
        />
      </SimpleGrid>
      <Textarea
        label={t('product.fields.description')}
        autosize
        minRows={2}
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
        error={fields.description}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NativeSelect
          label={t('product.fields.status')}
          value={status}
          onChange={(e) => setStatus(e.currentTarget.value as ProductStatus)}
          data={STATUSES.map((s) => ({ value: s, label: t(`products.statuses.${s}`) }))}
          error={fields.status}
        />
        <NativeSelect
          label={t('product.fields.brand')}
          value={brandId}
          onChange={(e) => setBrandId(e.currentTarget.value)}
          data={[{ value: '', label: t('product.noBrand') }, ...(choices?.brands ?? []).map((b) => ({ value: b.id, label: b.name }))]}
          error={fields.brand_id}
        />
      </SimpleGrid>
      {(choices?.categories.length ?? 0) > 0 && (
        <Checkbox.Group label={t('product.fields.categories')} value={categoryIds} onChange={setCategoryIds} error={fields.categories}>
          <Group gap="md" mt="xs">
            {choices?.categories.map((c) => (
              <Checkbox key={c.id} value={c.id} label={`${c.name} (${c.path})`} />
            ))}
          </Group>
        </Checkbox.Group>
      )}
      <ErrorNotice list={others} />
      <Group>
        <Button type="submit" loading={state.fetching}>
          {product ? t('product.save') : t('product.create')}
        </Button>
        {saved && !state.error && (
          <Text size="sm" role="status">
            {t('product.saved')}
          </Text>
        )}
      </Group>
    </Stack>
  );
}

/** One SKU: its price and shipping attributes (catalog.sku.update). */
function SkuForm({ sku, onSaved }: { sku: Sku; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const [amount, setAmount] = useState(text(sku.amount));
  const [weight, setWeight] = useState(text(sku.weight_grams));
  const [length, setLength] = useState(text(sku.length_cm));
  const [width, setWidth] = useState(text(sku.width_cm));
  const [height, setHeight] = useState(text(sku.height_cm));
  const [state, update] = useMutation(UpdateSku);
  const { fields, others } = outcome(state.error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await update({
      input: {
        sku_id: sku.id,
        amount: integer(amount),
        weight_grams: nullableInteger(weight),
        length_cm: nullableInteger(length),
        width_cm: nullableInteger(width),
        height_cm: nullableInteger(height),
      },
    });
    if (result.data?.catalog_sku_update) onSaved();
  };
  return (
    <Stack component="form" gap="xs" onSubmit={submit} aria-label={t('product.sku.edit', { code: sku.code })}>
      <SimpleGrid cols={{ base: 2, sm: 5 }}>
        <TextInput
          label={t('product.sku.amount')}
          description={money(sku.amount, sku.currency, i18n.language)}
          inputMode="numeric"
          value={amount}
          onChange={(e) => setAmount(e.currentTarget.value)}
          error={fields.amount}
        />
        <TextInput
          label={t('product.sku.weight')}
          inputMode="numeric"
          value={weight}
          onChange={(e) => setWeight(e.currentTarget.value)}
          error={fields.weight_grams}
        />
        <TextInput
          label={t('product.sku.length')}
          inputMode="numeric"
          value={length}
          onChange={(e) => setLength(e.currentTarget.value)}
          error={fields.length_cm}
        />
        <TextInput label={t('product.sku.width')} inputMode="numeric" value={width} onChange={(e) => setWidth(e.currentTarget.value)} error={fields.width_cm} />
        <TextInput
          label={t('product.sku.height')}
          inputMode="numeric"
          value={height}
          onChange={(e) => setHeight(e.currentTarget.value)}
          error={fields.height_cm}
        />
      </SimpleGrid>
      <ErrorNotice list={others} />
      <Group>
        <Button type="submit" variant="default" size="xs" loading={state.fetching}>
          {t('product.sku.save', { code: sku.code })}
        </Button>
      </Group>
    </Stack>
  );
}

/** A SKU's stock in one warehouse, with the Adjust action (inventory.adjust: set on hand). A refusal shows on the field. */
function StockRow({
  sku,
  warehouse,
  level,
  onSaved,
}: {
  sku: Sku;
  warehouse: { id: string; code: string; name: string };
  level?: Sku['stock_levels'][number];
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [onHand, setOnHand] = useState(text(level?.on_hand ?? 0));
  const [state, adjust] = useMutation(AdjustStock);
  useEffect(() => setOnHand(text(level?.on_hand ?? 0)), [level?.on_hand]);
  // The form has one input: every refusal of it is about that input (below reserved names no field).
  const refused = state.error
    ? refusals(state.error)
        .map((r) => r.message)
        .join(' ')
    : undefined;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await adjust({ input: { sku_id: sku.id, warehouse_id: warehouse.id, on_hand: integer(onHand) } });
    if (result.data?.inventory_adjust) onSaved();
  };
  return (
    <Table.Tr>
      <Table.Th scope="row">{`${warehouse.name} (${warehouse.code})`}</Table.Th>
      <Table.Td ta="right">{level?.on_hand ?? 0}</Table.Td>
      <Table.Td ta="right">{level?.reserved ?? 0}</Table.Td>
      <Table.Td ta="right">{level?.available ?? 0}</Table.Td>
      <Table.Td>
        <Group component="form" gap="xs" align="flex-start" onSubmit={submit} wrap="nowrap">
          <TextInput
            size="xs"
            w={120}
            aria-label={t('product.stock.onHandAt', { code: sku.code, warehouse: warehouse.code })}
            inputMode="numeric"
            value={onHand}
            onChange={(e) => setOnHand(e.currentTarget.value)}
            error={refused}
          />
          <Button
            type="submit"
            size="xs"
            variant="default"
            loading={state.fetching}
            aria-label={t('product.stock.adjustAt', { code: sku.code, warehouse: warehouse.code })}
          >
            {t('product.stock.adjust')}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function Stock({ sku, warehouses, onSaved }: { sku: Sku; warehouses: Choices['warehouses']; onSaved: () => void }) {
  const { t } = useTranslation();
  // Every warehouse of the tenant, with its level when it holds one; a warehouse the list did not answer still shows its level.
  const known = new Map(warehouses.map((w) => [w.id, w]));
  for (const level of sku.stock_levels) {
    if (!known.has(level.warehouse_id))
      known.set(level.warehouse_id, {
        id: level.warehouse_id,
        code: level.warehouse?.code ?? level.warehouse_id,
        name: level.warehouse?.name ?? level.warehouse_id,
      });
  }
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label={t('product.stock.of', { code: sku.code })}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('product.stock.warehouse')}</Table.Th>
            <Table.Th scope="col" ta="right">
              {t('product.stock.onHand')}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {t('product.stock.reserved')}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {t('product.stock.available')}
            </Table.Th>
            <Table.Th scope="col">{t('product.stock.setOnHand')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {[...known.values()].map((warehouse) => (
            <StockRow
              key={warehouse.id}
              sku={sku}
              warehouse={warehouse}
              level={sku.stock_levels.find((l) => l.warehouse_id === warehouse.id)}
              onSaved={onSaved}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Adds a SKU (catalog.sku.create): code, amount in minor units, currency. */
function NewSku({ product, onSaved }: { product: Product; onSaved: () => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState(product.skus[0]?.currency ?? 'EUR');
  const [state, create] = useMutation(CreateSku);
  const { fields, others } = outcome(state.error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({
      input: { product_id: product.id, code: code.trim() || undefined, amount: integer(amount) as number, currency: currency.trim() || undefined },
    });
    if (result.data?.catalog_sku_create) {
      setCode('');
      setAmount('');
      onSaved();
    }
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label={t('product.newSku.title')}>
      <Stack gap="xs">
        <Title order={3} size="h4">
          {t('product.newSku.title')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label={t('product.newSku.code')} value={code} onChange={(e) => setCode(e.currentTarget.value)} error={fields.code} />
          <TextInput
            label={t('product.sku.amount')}
            required
            inputMode="numeric"
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
            error={fields.amount}
          />
          <TextInput
            label={t('product.newSku.currency')}
            maxLength={3}
            value={currency}
            onChange={(e) => setCurrency(e.currentTarget.value)}
            error={fields.currency}
          />
        </SimpleGrid>
        <ErrorNotice list={others} />
        <Group>
          <Button type="submit" loading={state.fetching}>
            {t('product.newSku.add')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Publication to the tenant's stores (catalog.product.publish / unpublish). */
function Stores({ product, stores, onSaved }: { product: Product; stores: Choices['stores']; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const [published, publish] = useMutation(PublishProduct);
  const [unpublished, unpublish] = useMutation(UnpublishProduct);
  const error = published.error ?? unpublished.error;
  const toggle = async (storeId: string, on: boolean) => {
    const result = on
      ? await publish({ input: { product_id: product.id, store_id: storeId } })
      : await unpublish({ input: { product_id: product.id, store_id: storeId } });
    if (!result.error) onSaved();
  };
  return (
    <>
      {error && <ErrorNotice error={error} />}
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('product.stores.store')}</Table.Th>
            <Table.Th scope="col">{t('product.stores.state')}</Table.Th>
            <Table.Th scope="col">{t('product.stores.action')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {stores.map((store) => {
            const publication = product.stores.find((p) => p.store_id === store.id);
            return (
              <Table.Tr key={store.id}>
                <Table.Th scope="row">{`${store.name} (${store.handle})`}</Table.Th>
                <Table.Td>
                  {publication ? (
                    <Badge color="green" variant="light">
                      {t('product.stores.publishedAt', { date: dateTime(publication.published_at, i18n.language) })}
                    </Badge>
                  ) : (
                    <Badge color="gray" variant="light">
                      {t('product.stores.notPublished')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="default"
                    loading={published.fetching || unpublished.fetching}
                    onClick={() => void toggle(store.id, !publication)}
                    aria-label={t(publication ? 'product.stores.unpublishFrom' : 'product.stores.publishTo', { store: store.name })}
                  >
                    {publication ? t('product.stores.unpublish') : t('product.stores.publish')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </>
  );
}

/** Catalog → a product: its details, SKUs with price, shipping attributes and stock per warehouse, and its stores. /catalog/products/new creates one. */
export function ProductEditor() {
  const { t } = useTranslation();
  const id = useParams().id;
  const navigate = useNavigate();
  const [choicesResult] = useQuery({ query: ProductChoices });
  const [{ data, fetching, error }, refetch] = useQuery({ query: ProductPage, variables: { id: id ?? '' }, pause: !id });
  const product = data?.catalog_product ?? undefined;
  const heading = id ? (product?.title ?? t('product.title')) : t('product.new');
  useTitle(heading);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const c = choicesResult.data;
  const choices: Choices | undefined = c
    ? {
        brands: c.brands?.edges.map((e) => e.node) ?? [],
        categories: c.categories?.edges.map((e) => e.node) ?? [],
        stores: c.stores?.edges.map((e) => e.node) ?? [],
        warehouses: c.warehouses?.edges.map((e) => e.node) ?? [],
      }
    : undefined;

  return (
    <Stack>
      <Anchor component={Link} to="/catalog/products" size="sm">
        ← {t('product.back')}
      </Anchor>
      <Title order={1}>{heading}</Title>
      {choicesResult.error && <ErrorNotice error={choicesResult.error} />}
      {error && <ErrorNotice error={error} />}
      {!id ? (
        <ProductForm choices={choices} onSaved={(productId) => navigate(`/catalog/products/${productId}`, { replace: true })} />
      ) : fetching && !product ? (
        <Loading />
      ) : product ? (
        <>
          <Section title={t('product.details')}>
            <ProductForm key={product.id} product={product} choices={choices} onSaved={reload} />
          </Section>
          <Section title={t('product.skus')}>
            {product.skus.length === 0 && <Text c="dimmed">{t('product.noSkus')}</Text>}
            {product.skus.map((sku) => (
              <Paper key={sku.id} withBorder p="md" component="article" aria-label={t('product.sku.title', { code: sku.code })}>
                <Stack gap="sm">
                  <Group gap="xs">
                    <Title order={3} size="h4" ff="monospace">
                      {sku.code}
                    </Title>
                    <Badge variant="outline">{sku.currency}</Badge>
                  </Group>
                  <SkuForm key={`${sku.id} ${sku.amount}`} sku={sku} onSaved={reload} />
                  <Stock sku={sku} warehouses={choices?.warehouses ?? []} onSaved={reload} />
                </Stack>
              </Paper>
            ))}
            <NewSku product={product} onSaved={reload} />
          </Section>
          <Section title={t('product.stores.title')}>
            <Stores product={product} stores={choices?.stores ?? []} onSaved={reload} />
          </Section>
        </>
      ) : (
        !error && <Text>{t('product.notFound')}</Text>
      )}
    </Stack>
  );
}
