import { ActionIcon, Button, Group, SimpleGrid, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { PaymentAppInstall } from '../../graphql/operations';
import { FormCard } from '../settings/FormCard';
import { duration, refusalsOf, wholeOrNull } from '../settings/forms';

/** An app declares at most this many methods (the API's bound). */
const MAX_METHODS = 20;
const isFormField = (field: string) => field === 'app_key' || field === 'name' || /^methods\[\d+\]\.(method|reservation_window_seconds)$/.test(field);

/** Install a payment app: its key, name and methods, each with the window an order waits for its payment (empty: never expires). */
export function InstallForm({ installed, cancel }: { installed: () => void; cancel: () => void }) {
  const { t, i18n } = useTranslation();
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [methods, setMethods] = useState([{ method: '', seconds: '' }]);
  const [state, install] = useMutation(PaymentAppInstall);
  const { fields, others } = refusalsOf(state.error, isFormField);
  const setMethod = (i: number, patch: Partial<(typeof methods)[number]>) => setMethods(methods.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      app_key: key.trim(),
      name: name.trim(),
      methods: methods.map((m) => ({ method: m.method.trim(), reservation_window_seconds: wholeOrNull(m.seconds) })),
    };
    const result = await install({ input });
    if (result.data?.payment_app_install) installed();
  };
  const hint = (seconds: string) => {
    const n = wholeOrNull(seconds);
    return n === null ? t('paymentSettings.noWindow') : typeof n === 'number' && n > 0 ? duration(n, i18n.language) : undefined;
  };
  return (
    <FormCard
      title={t('paymentSettings.install.title')}
      onSubmit={submit}
      others={others}
      busy={state.fetching}
      submit={t('paymentSettings.install.submit')}
      cancel={t('paymentSettings.cancel')}
      onCancel={cancel}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('paymentSettings.install.key')}
          description={t('paymentSettings.install.keyHint')}
          required
          maxLength={64}
          value={key}
          onChange={(e) => setKey(e.currentTarget.value)}
          error={fields.app_key}
        />
        <TextInput
          label={t('paymentSettings.install.name')}
          required
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={fields.name}
        />
      </SimpleGrid>
      <Text size="sm" fw={500}>
        {t('paymentSettings.install.methods')}
      </Text>
      {methods.map((m, i) => (
        // A method's place is its identity until it is installed (its key may be edited).
        <Group key={i} align="flex-start" gap="sm">
          <TextInput
            label={t('paymentSettings.install.method', { n: i + 1 })}
            description={t('paymentSettings.install.keyHint')}
            required
            maxLength={64}
            value={m.method}
            onChange={(e) => setMethod(i, { method: e.currentTarget.value })}
            error={fields[`methods[${i}].method`]}
          />
          <TextInput
            label={t('paymentSettings.install.window', { n: i + 1 })}
            description={hint(m.seconds) ?? t('paymentSettings.secondsHint')}
            inputMode="numeric"
            value={m.seconds}
            onChange={(e) => setMethod(i, { seconds: e.currentTarget.value })}
            error={fields[`methods[${i}].reservation_window_seconds`]}
          />
          {methods.length > 1 && (
            <ActionIcon
              mt={28}
              variant="default"
              aria-label={t('paymentSettings.install.removeMethod', { n: i + 1 })}
              onClick={() => setMethods(methods.filter((_, j) => j !== i))}
            >
              <span aria-hidden>×</span>
            </ActionIcon>
          )}
        </Group>
      ))}
      {methods.length < MAX_METHODS && (
        <Group>
          <Button variant="default" size="xs" onClick={() => setMethods([...methods, { method: '', seconds: '' }])}>
            {t('paymentSettings.install.addMethod')}
          </Button>
        </Group>
      )}
    </FormCard>
  );
}
