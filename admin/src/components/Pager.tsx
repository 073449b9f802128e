import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Connection paging: Previous asks the page before `startCursor`, Next the page after `endCursor`. */
export function Pager({ hasPrevious, hasNext, onPrevious, onNext }: { hasPrevious: boolean; hasNext: boolean; onPrevious: () => void; onNext: () => void }) {
  const { t } = useTranslation();
  return (
    <Group component="nav" aria-label={t('common.pages')} justify="flex-end" gap="xs">
      <Button variant="default" disabled={!hasPrevious} onClick={onPrevious}>
        {t('common.previous')}
      </Button>
      <Button variant="default" disabled={!hasNext} onClick={onNext}>
        {t('common.next')}
      </Button>
    </Group>
  );
}
