import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useScopes } from '../components/useScopes';
import { useTitle } from '../components/useTitle';
import { DEVELOPER_SCOPE, PAYMENTS_READ, SHIPPING_READ } from '../scopes';

/** A screen of a section: its link and what it is for. */
function Entry({ to, title, hint }: { to: string; title: string; hint: string }) {
  return (
    <>
      <Anchor component={Link} to={to}>
        {title}
      </Anchor>
      <Text size="sm" c="dimmed">
        {hint}
      </Text>
    </>
  );
}

/** Settings: its sections, each a screen of its own (Shipping and payments, Developers → API keys so far; docs/admin-graphql.md's SettingsPage lists the rest). */
export function Settings() {
  const has = useScopes();
  const { t } = useTranslation();
  useTitle(t('settings.title'));
  return (
    <Stack>
      <Title order={1}>{t('settings.title')}</Title>
      {(has(SHIPPING_READ) || has(PAYMENTS_READ)) && (
        <Paper withBorder p="md" component="section" aria-labelledby="settings-commerce">
          <Stack gap="xs">
            <Title order={2} size="h3" id="settings-commerce">
              {t('shippingSettings.section')}
            </Title>
            {has(SHIPPING_READ) && <Entry to="/settings/shipping" title={t('shippingSettings.title')} hint={t('shippingSettings.hint')} />}
            {has(PAYMENTS_READ) && <Entry to="/settings/payments" title={t('paymentSettings.title')} hint={t('paymentSettings.hint')} />}
          </Stack>
        </Paper>
      )}
      {has(DEVELOPER_SCOPE) && (
        <Paper withBorder p="md" component="section" aria-labelledby="settings-developers">
          <Stack gap="xs">
            <Title order={2} size="h3" id="settings-developers">
              {t('settings.developers')}
            </Title>
            <Anchor component={Link} to="/settings/api-keys">
              {t('apiKeys.title')}
            </Anchor>
            <Text size="sm" c="dimmed">
              {t('settings.apiKeysHint')}
            </Text>
          </Stack>
        </Paper>
      )}
      <Text>{t('settings.soon')}</Text>
    </Stack>
  );
}
