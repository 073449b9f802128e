import { Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { PaymentAppsListQuery } from '../../gql/graphql';
import { PaymentWindowSet } from '../../graphql/operations';
import { duration, refusalsOf, wholeOrNull } from '../settings/forms';

export type App = NonNullable<PaymentAppsListQuery['payment_apps']>['edges'][number]['node'];
type Store = { id: string; name: string; handle: string };
const FORM_FIELDS = new Set(['store_id', 'app_id', 'method', 'reservation_window_seconds']);

/**
 * A store's payment window for one method of an installed app (payment_window_set): how long an order
 * there waits for that payment before it expires. Empty clears the store's override, and the app's
 * declared window applies again. The field starts from the chosen store's current override.
 */
export function WindowForm({ apps, stores, changed }: { apps: App[]; stores: Store[]; changed: () => void }) {
  const { t, i18n } = useTranslation();
  const [storeId, setStoreId] = useState('');
  const [appId, setAppId] = useState('');
  const [method, setMethod] = useState('');
  // What the operator typed, for the store/app/method it was typed for; any other choice starts from its current override.
  const [typing, setTyping] = useState<{ key: string; value: string } | null>(null);
  const [state, set] = useMutation(PaymentWindowSet);
  const { fields, others } = refusalsOf(state.error, (field) => FORM_FIELDS.has(field));
  const store = stores.find((s) => s.id === storeId) ?? stores[0];
  const app = apps.find((a) => a.id === appId) ?? apps[0];
  const declared = app?.methods.find((m) => m.method === method) ?? app?.methods[0];
  const current = app?.store_windows.find((w) => w.store_id === store?.id && w.method === declared?.method);
  const key = `${store?.id} ${app?.id} ${declared?.method}`;
  const seconds = typing?.key === key ? typing.value : current ? String(current.reservation_window_seconds) : '';
  const windowText = (s: number | null | undefined) => (s === null || s === undefined ? t('paymentSettings.noWindow') : duration(s, i18n.language));
  const done = state.data?.payment_window_set;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!store || !app || !declared) return;
    const { error } = await set({ input: { store_id: store.id, app_id: app.id, method: declared.method, reservation_window_seconds: wholeOrNull(seconds) } });
    // The list and this field then read the store's windows as the server now holds them.
    if (!error) changed();
  };
  const typed = wholeOrNull(seconds);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="window-set">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h3" id="window-set">
            {t('paymentSettings.window.title')}
          </Title>
          <Text size="sm">{t('paymentSettings.window.intro')}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
            <NativeSelect
              label={t('paymentSettings.window.store')}
              value={store?.id ?? ''}
              onChange={(e) => setStoreId(e.currentTarget.value)}
              data={stores.map((s) => ({ value: s.id, label: `${s.name} (${s.handle})` }))}
              error={fields.store_id}
            />
            <NativeSelect
              label={t('paymentSettings.window.app')}
              value={app?.id ?? ''}
              onChange={(e) => {
                setAppId(e.currentTarget.value);
                setMethod('');
              }}
              data={apps.map((a) => ({ value: a.id, label: a.name }))}
              error={fields.app_id}
            />
            <NativeSelect
              label={t('paymentSettings.window.method')}
              value={declared?.method ?? ''}
              onChange={(e) => setMethod(e.currentTarget.value)}
              data={(app?.methods ?? []).map((m) => m.method)}
              error={fields.method}
            />
            <TextInput
              label={t('paymentSettings.window.seconds')}
              description={
                typed === null
                  ? t('paymentSettings.window.clearHint')
                  : typeof typed === 'number' && typed > 0
                    ? duration(typed, i18n.language)
                    : t('paymentSettings.secondsHint')
              }
              inputMode="numeric"
              value={seconds}
              onChange={(e) => setTyping({ key, value: e.currentTarget.value })}
              error={fields.reservation_window_seconds}
            />
          </SimpleGrid>
          {declared && (
            <Text size="sm">
              {current
                ? t('paymentSettings.window.overridden', {
                    window: windowText(current.reservation_window_seconds),
                    declared: windowText(declared.reservation_window_seconds),
                  })
                : t('paymentSettings.window.declared', { window: windowText(declared.reservation_window_seconds) })}
            </Text>
          )}
          <ErrorNotice list={others} />
          <Group>
            <Button type="submit" loading={state.fetching} disabled={!store || !declared}>
              {t('paymentSettings.window.submit')}
            </Button>
          </Group>
          {done && !state.error && (
            <Text role="status" size="sm" fw={500}>
              {done.reservation_window_seconds === null
                ? t('paymentSettings.window.cleared', {
                    store: stores.find((s) => s.id === done.store_id)?.name ?? done.store_id,
                    method: done.method,
                  })
                : t('paymentSettings.window.set', {
                    store: stores.find((s) => s.id === done.store_id)?.name ?? done.store_id,
                    method: done.method,
                    window: windowText(done.reservation_window_seconds),
                  })}
            </Text>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
