import { Anchor, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTitle } from '../components/useTitle';

export function NotFound() {
  const { t } = useTranslation();
  useTitle(t('notFound.title'));
  return (
    <Stack>
      <Title order={1}>{t('notFound.title')}</Title>
      <Anchor component={Link} to="/catalog/products">
        {t('notFound.home')}
      </Anchor>
    </Stack>
  );
}
