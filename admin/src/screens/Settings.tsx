import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SettingsSection } from '../components/SettingsSection';
import { useScopes } from '../components/useScopes';
import { useTitle } from '../components/useTitle';
import { DEVELOPER_SCOPE, NOTIFICATIONS_SCOPE, OPERATORS_READ, PAGES_READ, PAYMENTS_READ, SHIPPING_READ } from '../scopes';

/**
 * Settings: its sections, each a list of screens. A screen is offered only to operators whose scopes read it
 * (the server refuses the rest anyway); a section with none offered is not shown.
 */
export function Settings() {
  const has = useScopes();
  const { t } = useTranslation();
  useTitle(t('settings.title'));
  const sections = [
    {
      id: 'settings-storefront',
      title: t('stores.section'),
      links: [
        // Stores are listed to any operator.
        { to: '/settings/stores', label: t('stores.title'), hint: t('stores.hint'), shown: true },
        { to: '/settings/pages', label: t('pages.title'), hint: t('pages.hint'), shown: has(PAGES_READ) },
      ],
    },
    {
      id: 'settings-commerce',
      title: t('shippingSettings.section'),
      links: [
        { to: '/settings/shipping', label: t('shippingSettings.title'), hint: t('shippingSettings.hint'), shown: has(SHIPPING_READ) },
        { to: '/settings/payments', label: t('paymentSettings.title'), hint: t('paymentSettings.hint'), shown: has(PAYMENTS_READ) },
      ],
    },
    {
      id: 'settings-notifications',
      title: t('settings.notifications'),
      links: [{ to: '/settings/notifications', label: t('notifications.title'), hint: t('settings.notificationsHint'), shown: has(NOTIFICATIONS_SCOPE) }],
    },
    {
      id: 'settings-team',
      title: t('operators.section'),
      links: [{ to: '/settings/operators', label: t('operators.title'), hint: t('operators.hint'), shown: has(OPERATORS_READ) }],
    },
    {
      id: 'settings-developers',
      title: t('settings.developers'),
      links: [
        { to: '/settings/api-keys', label: t('apiKeys.title'), hint: t('settings.apiKeysHint'), shown: has(DEVELOPER_SCOPE) },
        { to: '/settings/webhooks', label: t('webhooks.title'), hint: t('settings.webhooksHint'), shown: has(DEVELOPER_SCOPE) },
        { to: '/settings/audit', label: t('audit.title'), hint: t('settings.auditHint'), shown: has(DEVELOPER_SCOPE) },
      ],
    },
  ];
  return (
    <Stack>
      <Title order={1}>{t('settings.title')}</Title>
      {sections.map((section) => {
        const links = section.links.filter((link) => link.shown);
        return links.length > 0 && <SettingsSection key={section.id} id={section.id} title={section.title} links={links} />;
      })}
    </Stack>
  );
}
