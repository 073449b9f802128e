import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { money } from '../../format';
import { SetPromotion, UpdateSku } from '../../graphql/operations';
import { type Choices, integer, nullableInteger, outcome, type Sku, text } from './form';
import { Media } from './Media';
import { Stock } from './Stock';

/** One SKU: its price and shipping attributes (catalog.sku.update). */
function SkuForm({ sku, onSaved }: { sku: Sku; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const [amount, setAmount] = useState(text(sku.amount));
  const [weight, setWeight] = useState(text(sku.weight_grams));
  const [length, setLength] = useState(text(sku.length_cm));
  const [width, setWidth] = useState(text(sku.width_cm));
  const [height, setHeight] = useState(text(sku.height_cm));
  const [state, update] = useMutation(UpdateSku);
  const { fields, others } = outcome(state.error, ['amount', 'weight_grams', 'length_cm', 'width_cm', 'height_cm']);
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

/**
 * The SKU's promotional price (catalog.sku.set_promotion): an amount below its price, in minor units;
 * "Remove" sends null, which clears it. A refusal (not below the price) shows on the field.
 */
function Promotion({ sku, onSaved }: { sku: Sku; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const current = sku.promotional_price?.promotional_amount ?? null;
  const [amount, setAmount] = useState(text(current));
  const [state, set] = useMutation(SetPromotion);
  const { fields, others } = outcome(state.error, ['promotional_amount']);
  const save = async (promotional_amount: number | null) => {
    const result = await set({ input: { sku_id: sku.id, promotional_amount } });
    if (result.data?.catalog_sku_set_promotion) onSaved();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(nullableInteger(amount));
  };
  return (
    <Stack component="form" gap="xs" onSubmit={submit} aria-label={t('product.promotion.of', { code: sku.code })}>
      <Group align="flex-start">
        <TextInput
          label={t('product.promotion.amount')}
          description={
            current === null
              ? t('product.promotion.none')
              : t('product.promotion.current', { amount: money(current, sku.currency, i18n.language), price: money(sku.amount, sku.currency, i18n.language) })
          }
          inputMode="numeric"
          value={amount}
          onChange={(e) => setAmount(e.currentTarget.value)}
          error={fields.promotional_amount}
        />
        <Button type="submit" mt={46} variant="default" size="xs" loading={state.fetching}>
          {t('product.promotion.save', { code: sku.code })}
        </Button>
        {current !== null && (
          <Button mt={46} variant="subtle" color="red" size="xs" onClick={() => void save(null)}>
            {t('product.promotion.remove', { code: sku.code })}
          </Button>
        )}
      </Group>
      <ErrorNotice list={others} />
    </Stack>
  );
}

/** A SKU: its options' values, price and shipping attributes, promotion, media and stock per warehouse. */
export function SkuCard({ sku, warehouses, onSaved }: { sku: Sku; warehouses: Choices['warehouses']; onSaved: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="article" aria-label={t('product.sku.title', { code: sku.code })}>
      <Stack gap="sm">
        <Group gap="xs">
          <Title order={3} size="h4" ff="monospace">
            {sku.code}
          </Title>
          <Badge variant="outline">{sku.currency}</Badge>
          {(sku.option_values ?? []).map((v) => (
            <Badge key={v.option} variant="light" tt="none">{`${v.option}: ${v.value}`}</Badge>
          ))}
          {sku.promotional_price && (
            <Text size="sm" c="red">
              {t('product.promotion.badge')}
            </Text>
          )}
        </Group>
        <SkuForm key={`${sku.id} ${sku.amount}`} sku={sku} onSaved={onSaved} />
        <Promotion key={`${sku.id} ${sku.promotional_price?.promotional_amount ?? ''}`} sku={sku} onSaved={onSaved} />
        <Media owner={{ type: 'sku', id: sku.id, label: sku.code }} media={sku.media} onSaved={onSaved} />
        <Stock sku={sku} warehouses={warehouses} onSaved={onSaved} />
      </Stack>
    </Paper>
  );
}
