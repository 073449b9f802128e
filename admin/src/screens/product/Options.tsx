import { Badge, Button, Group, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { CreateOption } from '../../graphql/operations';
import { outcome, type Product } from './form';

/** The values typed as a comma-separated list, trimmed, empty ones left out. */
const listOf = (typed: string) =>
  typed
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * The product's option axes (size, colour…) and the form adding one (catalog.option.create): its name,
 * values and the value every existing SKU takes. A refusal about a value shows on the values' field.
 */
export function Options({ product, onSaved }: { product: Product; onSaved: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [values, setValues] = useState('');
  const [fallback, setFallback] = useState('');
  const [state, create] = useMutation(CreateOption);
  const { fields, others } = outcome(state.error, ['name', 'values', 'default_value']);
  const options = [...(product.options ?? [])].sort((a, b) => a.position - b.position);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const list = listOf(values);
    const result = await create({ input: { product_id: product.id, name: name.trim(), values: list, default_value: fallback.trim() || (list[0] ?? '') } });
    if (!result.data?.catalog_option_create) return;
    setName('');
    setValues('');
    setFallback('');
    onSaved();
  };
  return (
    <Stack gap="sm">
      {options.length === 0 ? (
        <Text c="dimmed">{t('product.options.none')}</Text>
      ) : (
        <Table aria-label={t('product.options.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('product.options.name')}</Table.Th>
              <Table.Th scope="col">{t('product.options.values')}</Table.Th>
              <Table.Th scope="col">{t('product.options.default')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {options.map((option) => (
              <Table.Tr key={option.option_id}>
                <Table.Th scope="row">{option.name}</Table.Th>
                <Table.Td>
                  <Group gap={4}>
                    {option.values.map((value) => (
                      <Badge key={value} variant="light" tt="none">
                        {value}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>{option.default_value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Stack component="form" gap="xs" onSubmit={submit} aria-label={t('product.options.add')}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label={t('product.options.name')}
            required
            maxLength={200}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={fields.name}
          />
          <TextInput
            label={t('product.options.values')}
            description={t('product.options.valuesHint')}
            required
            value={values}
            onChange={(e) => setValues(e.currentTarget.value)}
            error={fields.values}
          />
          <TextInput
            label={t('product.options.default')}
            description={t('product.options.defaultHint')}
            maxLength={200}
            value={fallback}
            onChange={(e) => setFallback(e.currentTarget.value)}
            error={fields.default_value}
          />
        </SimpleGrid>
        <ErrorNotice list={others} />
        <Group>
          <Button type="submit" variant="default" loading={state.fetching}>
            {t('product.options.add')}
          </Button>
        </Group>
      </Stack>
    </Stack>
  );
}
