import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useTitle } from '../components/useTitle';

/** Settings: a place in the navigation for now (docs/admin-graphql.md's SettingsPage comes next). */
export function Settings() {
  const { t } = useTranslation();
  useTitle(t('settings.title'));
  return (
    <Stack>
      <Title order={1}>{t('settings.title')}</Title>
      <Text>{t('settings.soon')}</Text>
    </Stack>
  );
}
