import { Center, Loader, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A busy indicator that says what it is (role status: read out politely). */
export function Loading() {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status">
      <Loader size="sm" aria-hidden />
      <VisuallyHidden>{t('common.loading')}</VisuallyHidden>
    </Center>
  );
}
