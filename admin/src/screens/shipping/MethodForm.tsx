import { Checkbox, Group, NativeSelect, SimpleGrid, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import type { ShippingMethodKind, ShippingSettingsQuery } from '../../gql/graphql';
import { ShippingMethodCreate, ShippingMethodUpdate } from '../../graphql/operations';
import { FormCard } from '../settings/FormCard';
import { refusalsOf, shown, whole, wholeOrNull } from '../settings/forms';
import { draftOf, isRatesField, RatesFields, ratesInput } from './RatesFields';

export type Method = NonNullable<ShippingSettingsQuery['shipping_methods']>['edges'][number]['node'];
export type ZoneChoice = { id: string; name: string };

/** The method's limits and figures typed as whole numbers (empty: none). */
const FIGURES = ['dimensional_divisor', 'transit_days', 'max_weight_grams', 'max_length_cm', 'max_width_cm', 'max_height_cm', 'max_dimensions_sum_cm'] as const;
type Figure = (typeof FIGURES)[number];
const FIELDS = new Set<string>(['name', 'kind', 'carrier_id', 'zone_ids', ...FIGURES]);
/** The carriers' usual cubic divisor (cm³ per kg), offered for a new method. */
const DEFAULT_DIVISOR = '6000';

/**
 * A shipping method's form: new (shipping_method_create) or changed (shipping_method_update, every field
 * sent: an emptied limit is null, no zone ticked serves every zone, no charge is `rates: null`).
 */
export function MethodForm({ method, zones, saved, cancel }: { method?: Method; zones: ZoneChoice[]; saved: () => void; cancel: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(method?.name ?? '');
  const [kind, setKind] = useState<ShippingMethodKind>(method?.kind ?? 'delivery');
  const [active, setActive] = useState(method?.active ?? true);
  const [carrier, setCarrier] = useState(method?.carrier_id ?? '');
  const [figures, setFigures] = useState<Record<Figure, string>>(() => {
    const typed = Object.fromEntries(FIGURES.map((f) => [f, shown(method?.[f])])) as Record<Figure, string>;
    return method ? typed : { ...typed, dimensional_divisor: DEFAULT_DIVISOR };
  });
  const [zoneIds, setZoneIds] = useState<string[]>(method?.zone_ids ?? []);
  const [rates, setRates] = useState(() => draftOf(method?.rates ?? null));
  const [created, create] = useMutation(ShippingMethodCreate);
  const [updated, update] = useMutation(ShippingMethodUpdate);
  const state = method ? updated : created;
  const { fields, others } = refusalsOf(state.error, (field) => FIELDS.has(field) || isRatesField(field));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const numbers = Object.fromEntries(FIGURES.map((f) => [f, wholeOrNull(figures[f])])) as Record<Figure, number | null>;
    const common = { ...numbers, name: name.trim(), kind, active, carrier_id: carrier.trim() || null, zone_ids: zoneIds, rates: ratesInput(rates) };
    // The divisor is required and never null.
    const input = { ...common, dimensional_divisor: whole(figures.dimensional_divisor) };
    const ok = method
      ? (await update({ input: { ...input, method_id: method.id } })).data?.shipping_method_update
      : (await create({ input })).data?.shipping_method_create;
    if (ok) saved();
  };
  const figure = (f: Figure) => (
    <TextInput
      key={f}
      label={t(`shippingSettings.methods.fields.${f}`)}
      description={t(`shippingSettings.methods.hints.${f}`)}
      required={f === 'dimensional_divisor'}
      inputMode="numeric"
      value={figures[f]}
      onChange={(e) => setFigures({ ...figures, [f]: e.currentTarget.value })}
      error={fields[f]}
    />
  );

  return (
    <FormCard
      title={method ? t('shippingSettings.methods.editNamed', { name: method.name }) : t('shippingSettings.methods.new')}
      onSubmit={submit}
      others={others}
      busy={state.fetching}
      submit={method ? t('shippingSettings.methods.save') : t('shippingSettings.methods.create')}
      cancel={t('shippingSettings.cancel')}
      onCancel={cancel}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label={t('shippingSettings.methods.fields.name')}
          required
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={fields.name}
        />
        <NativeSelect
          label={t('shippingSettings.methods.fields.kind')}
          value={kind}
          onChange={(e) => setKind(e.currentTarget.value as ShippingMethodKind)}
          data={(['delivery', 'pickup'] as const).map((k) => ({ value: k, label: t(`shippingSettings.kinds.${k}`) }))}
          error={fields.kind}
        />
        <TextInput
          label={t('shippingSettings.methods.fields.carrier_id')}
          description={t('shippingSettings.methods.hints.carrier_id')}
          maxLength={200}
          value={carrier}
          onChange={(e) => setCarrier(e.currentTarget.value)}
          error={fields.carrier_id}
        />
      </SimpleGrid>
      <Checkbox label={t('shippingSettings.methods.fields.active')} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>{FIGURES.map(figure)}</SimpleGrid>
      <Checkbox.Group
        label={t('shippingSettings.methods.fields.zone_ids')}
        description={t('shippingSettings.methods.hints.zone_ids')}
        value={zoneIds}
        onChange={setZoneIds}
        error={fields.zone_ids}
      >
        <Group gap="md" mt="xs">
          {zones.map((z) => (
            <Checkbox key={z.id} value={z.id} label={z.name} />
          ))}
          {zones.length === 0 && <Text size="sm">{t('shippingSettings.zones.none')}</Text>}
        </Group>
      </Checkbox.Group>
      <RatesFields draft={rates} change={setRates} fields={fields} />
    </FormCard>
  );
}
