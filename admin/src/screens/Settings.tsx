import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useScopes } from '../components/useScopes';
import { useTitle } from '../components/useTitle';
import { DEVELOPER_SCOPE, NOTIFICATIONS_SCOPE } from '../scopes';

/** Settings: its sections, each a screen of its own (docs/admin-graphql.md's SettingsPage lists the rest to come). */
export function Settings() {
  const has = useScopes();
  const { t } = useTranslation();
  useTitle(t('settings.title'));
  return (
    <Stack>
      <Title order={1}>{t('settings.title')}</Title>
      {has(NOTIFICATIONS_SCOPE) && (
        <Paper withBorder p="md" component="section" aria-labelledby="settings-notifications">
          <Stack gap="xs">
            <Title order={2} size="h3" id="settings-notifications">
              {t('settings.notifications')}
            </Title>
            <Anchor component={Link} to="/settings/notifications">
              {t('notifications.title')}
            </Anchor>
            <Text size="sm" c="dimmed">
              {t('settings.notificationsHint')}
            </Text>
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
            <Anchor component={Link} to="/settings/webhooks">
              {t('webhooks.title')}
            </Anchor>
            <Text size="sm" c="dimmed">
              {t('settings.webhooksHint')}
            </Text>
            <Anchor component={Link} to="/settings/audit">
              {t('audit.title')}
            </Anchor>
            <Text size="sm" c="dimmed">
              {t('settings.auditHint')}
            </Text>
          </Stack>
        </Paper>
      )}
      <Text>{t('settings.soon')}</Text>
    </Stack>
  );
}
