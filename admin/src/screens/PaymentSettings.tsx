import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { Pager } from '../components/Pager';
import { usePaging } from '../components/paging';
import { useScopes } from '../components/useScopes';
import { useTitle } from '../components/useTitle';
import { type Refusal, refusals } from '../graphql/errors';
import { PaymentAppInstall, PaymentAppsList, PaymentAppUninstall } from '../graphql/operations';
import { PAYMENTS_WRITE } from '../scopes';
import { InstallForm } from './payments/InstallForm';
import { type App, WindowForm } from './payments/WindowForm';
import { duration } from './settings/forms';

/**
 * Settings → Payments: the `payment_apps` connection (installed or not, by name, 50 a page) with each
 * method's declared window and the stores' overrides of it; for operators holding payments.write,
 * install (or install again), uninstall (asked first: orders awaiting its payment then never expire)
 * and a store's window per method.
 */
export function PaymentSettings() {
  const { t, i18n } = useTranslation();
  useTitle(t('paymentSettings.title'));
  const can = useScopes();
  const paging = usePaging();
  const [{ data, fetching, error }, reexecute] = useQuery({ query: PaymentAppsList, variables: paging.window });
  const [installing, setInstalling] = useState(false);
  const [uninstalling, setUninstalling] = useState<App | null>(null);
  const [uninstalled, uninstall] = useMutation(PaymentAppUninstall);
  const [reinstalled, reinstall] = useMutation(PaymentAppInstall);
  const [errors, setErrors] = useState<Refusal[]>([]);
  const canWrite = can(PAYMENTS_WRITE);
  const connection = data?.payment_apps;
  const apps = connection?.edges.map(({ node }) => node) ?? [];
  const stores = data?.stores?.edges.map(({ node }) => node) ?? [];
  // A store past the first 100 is named by its id.
  const storeName = (id: string) => stores.find((s) => s.id === id)?.name ?? id;
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  const outcome = (error: Parameters<typeof refusals>[0] | undefined) => {
    if (error) setErrors(refusals(error));
    else refresh();
  };
  const confirmUninstall = async () => {
    if (!uninstalling) return;
    const id = uninstalling.id;
    setUninstalling(null);
    setErrors([]);
    outcome((await uninstall({ input: { app_id: id } })).error);
  };
  // Installing the same app_key again brings it back, with the methods it declared.
  const installAgain = async (app: App) => {
    setErrors([]);
    outcome((await reinstall({ input: { app_key: app.app_key, name: app.name, methods: app.methods } })).error);
  };
  const windowText = (s: number | null | undefined) => (s === null || s === undefined ? t('paymentSettings.noWindow') : duration(s, i18n.language));

  return (
    <Stack>
      <Anchor component={Link} to="/settings" size="sm">
        {t('paymentSettings.back')}
      </Anchor>
      <Title order={1}>{t('paymentSettings.title')}</Title>
      <Text>{t('paymentSettings.intro')}</Text>
      {canWrite &&
        (installing ? (
          <InstallForm
            cancel={() => setInstalling(false)}
            installed={() => {
              setInstalling(false);
              refresh();
            }}
          />
        ) : (
          <Group>
            <Button onClick={() => setInstalling(true)}>{t('paymentSettings.install.title')}</Button>
          </Group>
        ))}
      <ErrorNotice list={errors} />
      {error && <ErrorNotice error={error} />}
      {fetching && !connection ? (
        <Loading />
      ) : connection ? (
        <>
          <Table.ScrollContainer minWidth={880}>
            <Table striped aria-label={t('paymentSettings.apps')} aria-busy={fetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('paymentSettings.columns.name')}</Table.Th>
                  <Table.Th scope="col">{t('paymentSettings.columns.key')}</Table.Th>
                  <Table.Th scope="col">{t('paymentSettings.columns.methods')}</Table.Th>
                  <Table.Th scope="col">{t('paymentSettings.columns.storeWindows')}</Table.Th>
                  <Table.Th scope="col">{t('paymentSettings.columns.status')}</Table.Th>
                  {canWrite && <Table.Th scope="col">{t('paymentSettings.columns.actions')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {apps.map((app) => (
                  <Table.Tr key={app.id}>
                    <Table.Td>{app.name}</Table.Td>
                    <Table.Td ff="monospace">{app.app_key}</Table.Td>
                    <Table.Td>
                      {app.methods.map((m) => (
                        <Text size="sm" key={m.method}>
                          {t('paymentSettings.methodWindow', { method: m.method, window: windowText(m.reservation_window_seconds) })}
                        </Text>
                      ))}
                    </Table.Td>
                    <Table.Td>
                      {app.store_windows.length === 0 ? (
                        <Text size="sm">{t('paymentSettings.noStoreWindows')}</Text>
                      ) : (
                        app.store_windows.map((w) => (
                          <Text size="sm" key={`${w.store_id} ${w.method}`}>
                            {t('paymentSettings.storeWindow', {
                              store: storeName(w.store_id),
                              method: w.method,
                              window: windowText(w.reservation_window_seconds),
                            })}
                          </Text>
                        ))
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={app.installed ? 'green' : 'gray'}>
                        {app.installed ? t('paymentSettings.installed') : t('paymentSettings.uninstalled')}
                      </Badge>
                    </Table.Td>
                    {canWrite && (
                      <Table.Td>
                        {app.installed ? (
                          <Button
                            size="xs"
                            color="red"
                            variant="light"
                            aria-label={t('paymentSettings.uninstallNamed', { name: app.name })}
                            onClick={() => setUninstalling(app)}
                          >
                            {t('paymentSettings.uninstall')}
                          </Button>
                        ) : (
                          <Button
                            size="xs"
                            variant="light"
                            loading={reinstalled.fetching}
                            aria-label={t('paymentSettings.reinstallNamed', { name: app.name })}
                            onClick={() => installAgain(app)}
                          >
                            {t('paymentSettings.reinstall')}
                          </Button>
                        )}
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {apps.length === 0 && <Text>{t('paymentSettings.none')}</Text>}
          <Pager
            hasPrevious={connection.pageInfo.hasPreviousPage}
            hasNext={connection.pageInfo.hasNextPage}
            onPrevious={() => paging.previous(connection.pageInfo.startCursor)}
            onNext={() => paging.next(connection.pageInfo.endCursor)}
          />
          {canWrite && apps.some((a) => a.installed) && <WindowForm apps={apps.filter((a) => a.installed)} stores={stores} changed={refresh} />}
        </>
      ) : null}
      <ConfirmDialog
        opened={uninstalling !== null}
        title={t('paymentSettings.uninstallTitle')}
        question={t('paymentSettings.uninstallQuestion', { name: uninstalling?.name ?? '' })}
        keep={t('paymentSettings.keep')}
        confirm={t('paymentSettings.confirmUninstall')}
        close={t('paymentSettings.close')}
        busy={uninstalled.fetching}
        onClose={() => setUninstalling(null)}
        onConfirm={confirmUninstall}
      />
    </Stack>
  );
}
