import { Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { UpdateProduct } from '../../graphql/operations';
import { outcome, type Product } from './form';

/** The product's custom fields are facetable: a value is a text, a number or yes/no (catalog.product.update, at most 100). */
type Kind = 'text' | 'number' | 'boolean';
interface Row {
  name: string;
  kind: Kind;
  value: string;
}

function rowsOf(fields: unknown): Row[] {
  if (!fields || typeof fields !== 'object') return [];
  return Object.entries(fields as Record<string, unknown>).map(([name, value]) => ({
    name,
    kind: typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'text',
    value: String(value),
  }));
}

/** A row's value as sent: a number typed as text is sent as typed (the server names it), yes/no as a boolean. */
function sentValue(row: Row): unknown {
  if (row.kind === 'boolean') return row.value === 'true';
  if (row.kind === 'number') return row.value.trim() !== '' && Number.isFinite(Number(row.value)) ? Number(row.value) : row.value;
  return row.value;
}

/** Edits the product's custom fields as rows of name, kind and value; saving replaces them all. */
export function CustomFields({ product, onSaved }: { product: Product; onSaved: () => void }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<Row[]>(() => rowsOf(product.custom_fields));
  const [state, update] = useMutation(UpdateProduct);
  const [saved, setSaved] = useState(false);
  const { fields, others } = outcome(state.error, ['custom_fields']);
  const change = (index: number, patch: Partial<Row>) => setRows((list) => list.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const record = Object.fromEntries(rows.filter((row) => row.name.trim()).map((row) => [row.name.trim(), sentValue(row)]));
    const result = await update({ input: { product_id: product.id, custom_fields: record } });
    if (!result.data?.catalog_product_update) return;
    setSaved(true);
    onSaved();
  };
  return (
    <Stack component="form" gap="xs" onSubmit={submit} aria-label={t('product.custom.title')}>
      {rows.length === 0 && <Text c="dimmed">{t('product.custom.none')}</Text>}
      {rows.map((row, i) => (
        // Rows have no identity but their place: a name can be edited.
        <Group key={i} align="flex-end" wrap="wrap">
          <TextInput
            label={t('product.custom.name', { n: i + 1 })}
            maxLength={200}
            value={row.name}
            onChange={(e) => change(i, { name: e.currentTarget.value })}
          />
          <NativeSelect
            label={t('product.custom.kind', { n: i + 1 })}
            value={row.kind}
            onChange={(e) => change(i, { kind: e.currentTarget.value as Kind, value: e.currentTarget.value === 'boolean' ? 'true' : row.value })}
            data={(['text', 'number', 'boolean'] as const).map((k) => ({ value: k, label: t(`product.custom.kinds.${k}`) }))}
          />
          {row.kind === 'boolean' ? (
            <NativeSelect
              label={t('product.custom.value', { n: i + 1 })}
              value={row.value}
              onChange={(e) => change(i, { value: e.currentTarget.value })}
              data={[
                { value: 'true', label: t('product.custom.yes') },
                { value: 'false', label: t('product.custom.no') },
              ]}
            />
          ) : (
            <TextInput
              label={t('product.custom.value', { n: i + 1 })}
              inputMode={row.kind === 'number' ? 'decimal' : undefined}
              value={row.value}
              onChange={(e) => change(i, { value: e.currentTarget.value })}
            />
          )}
          <Button variant="subtle" color="red" onClick={() => setRows((list) => list.filter((_, j) => j !== i))}>
            {t('product.custom.remove', { n: i + 1 })}
          </Button>
        </Group>
      ))}
      {fields.custom_fields && (
        <Text c="red" size="sm" role="alert">
          {fields.custom_fields}
        </Text>
      )}
      <ErrorNotice list={others} />
      <Group>
        <Button variant="default" onClick={() => setRows((list) => [...list, { name: '', kind: 'text', value: '' }])}>
          {t('product.custom.add')}
        </Button>
        <Button type="submit" loading={state.fetching}>
          {t('product.custom.save')}
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
