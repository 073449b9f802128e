import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useScopes } from '../components/useScopes';
import { useTitle } from '../components/useTitle';
import { SettingsSection } from '../components/SettingsSection';
import { DEVELOPER_SCOPE, OPERATORS_READ, PAGES_READ } from '../scopes';

/**
 * Settings: its sections, each a screen of its own (so far stores, institutional pages, operators and the developers'
 * API keys; docs/admin-graphql.md's SettingsPage lists the rest).
 */
export function Settings() {
  const has = useScopes();
  const { t } = useTranslation();
  useTitle(t('settings.title'));
  return (
    <Stack>
      <Title order={1}>{t('settings.title')}</Title>
      {/* Stores are listed to any operator; pages and operators to those whose role reads them. */}
      <SettingsSection
        id="settings-storefront"
        title={t('stores.section')}
        links={[
          { to: '/settings/stores', label: t('stores.title'), hint: t('stores.hint') },
          ...(has(PAGES_READ) ? [{ to: '/settings/pages', label: t('pages.title'), hint: t('pages.hint') }] : []),
        ]}
      />
      {has(OPERATORS_READ) && (
        <SettingsSection
          id="settings-team"
          title={t('operators.section')}
          links={[{ to: '/settings/operators', label: t('operators.title'), hint: t('operators.hint') }]}
        />
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
