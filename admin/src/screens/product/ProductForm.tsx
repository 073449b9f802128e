import { Button, Checkbox, Group, NativeSelect, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { ProductStatus } from '../../gql/graphql';
import { CreateProduct, UpdateProduct } from '../../graphql/operations';
import { type Choices, outcome, type Product } from './form';

const STATUSES: readonly ProductStatus[] = ['draft', 'active', 'archived'];

/** Title, handle, description, status and brand: creates the product, or updates it. */
export function ProductForm({ product, choices, onSaved }: { product?: Product; choices?: Choices; onSaved: (productId: string) => void }) {
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
  const { fields, others } = outcome(state.error, ['title', 'handle', 'description', 'status', 'brand_id', 'categories']);

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
