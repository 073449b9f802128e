import { AppShell, Burger, Button, Group, NativeSelect, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect } from 'react';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterLink, Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import { useQuery } from 'urql';
import { SessionError, signOut } from '../auth/session';
import { Loading } from '../components/Loading';
import { Whoami } from '../graphql/operations';
import { DEVELOPER_SCOPE } from '../scopes';
import { chooseLocale, followOperatorLocale, LOCALE_NAMES, LOCALES, type Locale, supported } from '../i18n';

/** The frame of every screen after sign-in: header (operator, language, sign-out), navigation, the screen. */
export function Shell() {
  const { t, i18n } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const [{ data }] = useQuery({ query: Whoami });
  const name = data?.read_internal_whoami?.name;
  const developer = data?.read_internal_whoami?.scopes?.includes(DEVELOPER_SCOPE) ?? false;
  const language = supported(i18n.language) ?? 'en';
  const operatorLocale = data?.read_internal_whoami?.locale;
  // The operator's own locale (null for a key), unless they chose another language on this browser.
  useEffect(() => followOperatorLocale(operatorLocale), [operatorLocale]);

  const leave = async () => {
    try {
      await signOut();
      // The client is made anew at the next sign-in (SignIn.tsx), not here: a fresh client under the
      // screens still shown would ask them again, now without a session.
      await navigate('/sign-in', { replace: true, state: { signedOut: true } });
    } catch (error) {
      const message = error instanceof SessionError ? error.message : t('errors.network');
      notifications.show({ color: 'red', message: t('shell.signOutFailed', { message }) });
    }
  };

  // `exact`: a section whose sub-pages have their own links (Settings and its API keys).
  const link = (to: string, label: string, exact = false) => (
    <NavLink component={RouterLink} to={to} label={label} active={pathname === to || (!exact && pathname.startsWith(`${to}/`))} onClick={close} />
  );

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <a href="#main" className="skip-link">
        {t('nav.skip')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.open')} aria-expanded={opened} aria-controls="navigation" />
            <Text fw={700}>{t('app.title')}</Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {name && (
              <Text size="sm" visibleFrom="sm">
                {t('shell.signedInAs', { name })}
              </Text>
            )}
            <NativeSelect
              aria-label={t('shell.language')}
              size="xs"
              value={language}
              onChange={(e) => chooseLocale(e.currentTarget.value as Locale)}
              data={LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }))}
            />
            <Button size="xs" variant="default" onClick={leave}>
              {t('shell.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar id="navigation" p="xs" component="nav" aria-label={t('nav.main')}>
        <NavLink label={t('nav.catalog')} defaultOpened childrenOffset="md">
          {link('/catalog/products', t('nav.products'))}
        </NavLink>
        {link('/orders', t('nav.orders'))}
        {link('/settings', t('nav.settings'), true)}
        {/* The developers' screens are for operators who may manage keys (owners); the server refuses the rest anyway. */}
        {developer && (
          <NavLink label={t('nav.developers')} defaultOpened childrenOffset="md">
            {link('/settings/api-keys', t('nav.apiKeys'))}
            {link('/settings/webhooks', t('nav.webhooks'))}
            {link('/settings/audit', t('nav.audit'))}
          </NavLink>
        )}
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        {navigation.state === 'loading' ? <Loading /> : <Outlet />}
      </AppShell.Main>
    </AppShell>
  );
}
