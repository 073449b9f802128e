import { Button, Group, NativeSelect, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { CreateSku } from '../../graphql/operations';
import { integer, outcome, type Product } from './form';

/** Adds a SKU (catalog.sku.create): code, amount in minor units, currency, and its value of each of the product's options. */
export function NewSku({ product, onSaved }: { product: Product; onSaved: () => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState(product.skus[0]?.currency ?? 'EUR');
  const options = product.options ?? [];
  const [values, setValues] = useState<Record<string, string>>({});
  const chosen = (option: (typeof options)[number]) => values[option.name] ?? option.default_value;
  const [state, create] = useMutation(CreateSku);
  const { fields, others } = outcome(state.error, ['code', 'amount', 'currency']);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({
      input: {
        product_id: product.id,
        code: code.trim() || undefined,
        amount: integer(amount) as number,
        currency: currency.trim() || undefined,
        ...(options.length > 0 ? { option_values: options.map((option) => ({ option: option.name, value: chosen(option) })) } : {}),
      },
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
        {options.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {options.map((option) => (
              <NativeSelect
                key={option.option_id}
                label={option.name}
                value={chosen(option)}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setValues((v) => ({ ...v, [option.name]: value }));
                }}
                data={option.values}
              />
            ))}
          </SimpleGrid>
        )}
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
