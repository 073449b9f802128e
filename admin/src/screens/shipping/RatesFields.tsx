import { ActionIcon, Button, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { money } from '../../format';
import { shown, whole, wholeOrNull } from '../settings/forms';

/** At most this many weight bands (the API's bound). */
export const MAX_BANDS = 20;

export type RatesMode = 'none' | 'flat' | 'bands';
/** What a method charges, as typed: nothing, one flat amount, or bands by billable weight; amounts in minor units of `currency`. */
export interface RatesDraft {
  mode: RatesMode;
  currency: string;
  flat: string;
  bands: Array<{ upTo: string; amount: string }>;
}

type Rates = { currency: string; flat_amount?: number | null; bands?: Array<{ up_to_grams: number; amount: number }> | null } | null;

export function draftOf(rates: Rates): RatesDraft {
  if (!rates) return { mode: 'none', currency: '', flat: '', bands: [{ upTo: '', amount: '' }] };
  const bands = rates.bands?.map((b) => ({ upTo: String(b.up_to_grams), amount: String(b.amount) }));
  return { mode: bands ? 'bands' : 'flat', currency: rates.currency, flat: shown(rates.flat_amount), bands: bands ?? [{ upTo: '', amount: '' }] };
}

/** The `rates` input: null for none (the method costs 0), else the currency and exactly one of flat_amount and bands. */
export function ratesInput(draft: RatesDraft) {
  if (draft.mode === 'none') return null;
  const currency = draft.currency.trim().toUpperCase();
  if (draft.mode === 'flat') return { currency, flat_amount: whole(draft.flat) };
  return { currency, bands: draft.bands.map((b) => ({ up_to_grams: whole(b.upTo), amount: whole(b.amount) })) };
}

/** Whether a refusal's field is one of these inputs (`rates.currency`, `rates.bands[2].amount`…). */
export const isRatesField = (field: string) => /^rates\.(currency|flat_amount|bands\[\d+\]\.(up_to_grams|amount))$/.test(field);

/** The rates part of a method's form: a kind of charge, its currency, and the flat amount or the bands (each with its price formatted beside). */
export function RatesFields({ draft, change, fields }: { draft: RatesDraft; change: (draft: RatesDraft) => void; fields: Record<string, string> }) {
  const { t, i18n } = useTranslation();
  const set = (patch: Partial<RatesDraft>) => change({ ...draft, ...patch });
  const price = (amount: string) => {
    const n = wholeOrNull(amount);
    return /^[A-Z]{3}$/.test(draft.currency.trim().toUpperCase()) && typeof n === 'number'
      ? money(n, draft.currency.trim().toUpperCase(), i18n.language)
      : undefined;
  };
  const setBand = (i: number, patch: Partial<RatesDraft['bands'][number]>) => set({ bands: draft.bands.map((b, j) => (j === i ? { ...b, ...patch } : b)) });
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <NativeSelect
          label={t('shippingSettings.rates.mode')}
          value={draft.mode}
          onChange={(e) => set({ mode: e.currentTarget.value as RatesMode })}
          data={(['none', 'flat', 'bands'] as const).map((mode) => ({ value: mode, label: t(`shippingSettings.rates.modes.${mode}`) }))}
        />
        {draft.mode !== 'none' && (
          <TextInput
            label={t('shippingSettings.rates.currency')}
            description={t('shippingSettings.rates.currencyHint')}
            required
            maxLength={3}
            value={draft.currency}
            onChange={(e) => set({ currency: e.currentTarget.value })}
            error={fields['rates.currency']}
          />
        )}
        {draft.mode === 'flat' && (
          <TextInput
            label={t('shippingSettings.rates.flat')}
            description={price(draft.flat) ?? t('shippingSettings.rates.minorUnits')}
            required
            inputMode="numeric"
            value={draft.flat}
            onChange={(e) => set({ flat: e.currentTarget.value })}
            error={fields['rates.flat_amount']}
          />
        )}
      </SimpleGrid>
      {draft.mode === 'bands' && (
        <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
          <Text component="legend" size="sm" fw={500}>
            {t('shippingSettings.rates.bands')}
          </Text>
          <Text size="sm" c="dimmed">
            {t('shippingSettings.rates.bandsHint')}
          </Text>
          {draft.bands.map((band, i) => (
            // Bands have no identity but their place: up_to_grams is strictly ascending.
            <Group key={i} align="flex-start" gap="sm">
              <TextInput
                label={t('shippingSettings.rates.upTo', { n: i + 1 })}
                inputMode="numeric"
                value={band.upTo}
                onChange={(e) => setBand(i, { upTo: e.currentTarget.value })}
                error={fields[`rates.bands[${i}].up_to_grams`]}
              />
              <TextInput
                label={t('shippingSettings.rates.bandAmount', { n: i + 1 })}
                description={price(band.amount)}
                inputMode="numeric"
                value={band.amount}
                onChange={(e) => setBand(i, { amount: e.currentTarget.value })}
                error={fields[`rates.bands[${i}].amount`]}
              />
              {draft.bands.length > 1 && (
                <ActionIcon
                  mt={28}
                  variant="default"
                  aria-label={t('shippingSettings.rates.removeBand', { n: i + 1 })}
                  onClick={() => set({ bands: draft.bands.filter((_, j) => j !== i) })}
                >
                  <span aria-hidden>×</span>
                </ActionIcon>
              )}
            </Group>
          ))}
          {draft.bands.length < MAX_BANDS && (
            <Group>
              <Button variant="default" size="xs" onClick={() => set({ bands: [...draft.bands, { upTo: '', amount: '' }] })}>
                {t('shippingSettings.rates.addBand')}
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Stack>
  );
}
