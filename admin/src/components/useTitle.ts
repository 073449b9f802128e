import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The document's title names the screen (what a screen reader announces, and the browser's history). */
export function useTitle(screen: string): void {
  const { t } = useTranslation();
  const app = t('app.title');
  useEffect(() => {
    document.title = `${screen} · ${app}`;
  }, [screen, app]);
}
