import { SimpleGrid, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ShippingZoneCreate } from '../../graphql/operations';
import { FormCard } from '../settings/FormCard';
import { refusalsOf } from '../settings/forms';

const ZONE_FIELDS = ['name', 'postal_code_from', 'postal_code_to'];

/** New zone: a name and an inclusive postal-code range (the server normalizes the codes and judges the range). */
export function ZoneForm({ created, cancel }: { created: () => void; cancel: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [state, create] = useMutation(ShippingZoneCreate);
  const { fields, others } = refusalsOf(state.error, (field) => ZONE_FIELDS.includes(field));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ input: { name: name.trim(), postal_code_from: from, postal_code_to: to } });
    if (result.data?.shipping_zone_create) created();
  };
  return (
    <FormCard
      title={t('shippingSettings.zones.new')}
      onSubmit={submit}
      others={others}
      busy={state.fetching}
      submit={t('shippingSettings.zones.create')}
      cancel={t('shippingSettings.cancel')}
      onCancel={cancel}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label={t('shippingSettings.zones.name')}
          required
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={fields.name}
        />
        <TextInput
          label={t('shippingSettings.zones.from')}
          description={t('shippingSettings.zones.codeHint')}
          required
          maxLength={32}
          value={from}
          onChange={(e) => setFrom(e.currentTarget.value)}
          error={fields.postal_code_from}
        />
        <TextInput
          label={t('shippingSettings.zones.to')}
          description={t('shippingSettings.zones.codeHint')}
          required
          maxLength={32}
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          error={fields.postal_code_to}
        />
      </SimpleGrid>
    </FormCard>
  );
}
