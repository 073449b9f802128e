import { Alert, Anchor, Button, Center, Divider, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { resetClient } from '../app-client';
import { oidcRefusalFromFragment, oidcRefusalKey, startOidc } from '../auth/oidc';
import { SessionError, signIn, signInFromFragment } from '../auth/session';
import { ErrorNotice } from '../components/ErrorNotice';
import { useTitle } from '../components/useTitle';
import { byField, type Refusal, refusals } from '../graphql/errors';
import { AuthMethods, RequestLoginCode } from '../graphql/operations';

/** The store handle last signed in at, offered again (not a secret: it is in every storefront URL). */
const LAST_STORE = 'backoffice.admin.store';
const remembered = () => {
  try {
    return window.localStorage.getItem(LAST_STORE) ?? '';
  } catch {
    return '';
  }
};
const remember = (store: string) => {
  try {
    window.localStorage.setItem(LAST_STORE, store);
  } catch {
    // not remembered
  }
};

interface Arrival {
  from?: string;
  expired?: boolean;
  signedOut?: boolean;
}

/**
 * Sign-in by a one-time code: the store and email ask the gateway to mail a code (GraphQL
 * `auth_login_code_request`), the code then opens a session (POST /v1/auth/session, which sets the
 * HttpOnly cookie). A link whose fragment carries the code (`#store=…&email=…&code=…`, printed by the
 * gateway's banner) signs in at once; the fragment is cleared first, so the code stays out of the history.
 * When the instance has an OIDC provider (`read_auth_methods`), "Sign in with <provider>" goes through it
 * for the store given (auth/oidc.ts); a refusal comes back in the fragment and is worded here.
 */
export function SignIn() {
  const { t } = useTranslation();
  useTitle(t('signIn.title'));
  const navigate = useNavigate();
  const location = useLocation();
  const arrival = (location.state ?? {}) as Arrival;
  const [store, setStore] = useState(remembered);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<{ minutes: number } | null>(null);
  const [problems, setProblems] = useState<Refusal[]>([]);
  const [busy, setBusy] = useState(false);
  const [fromLink, setFromLink] = useState(false);
  const [, requestCode] = useMutation(RequestLoginCode);
  const [{ data: methods }] = useQuery({ query: AuthMethods });
  const provider = methods?.read_auth_methods?.oidc?.provider;
  const from = arrival.from && arrival.from !== '/sign-in' ? arrival.from : '/';
  const codeInput = useRef<HTMLInputElement>(null);
  const { fields, others } = byField(problems);

  const enter = async (body: Record<string, string>) => {
    setBusy(true);
    setProblems([]);
    try {
      await signIn(body);
      if (body.store) remember(body.store);
      resetClient();
      navigate(from, { replace: true });
    } catch (error) {
      setProblems([error instanceof SessionError ? error.refusal : { message: t('errors.network') }]);
    } finally {
      setBusy(false);
    }
  };

  // A sign-in link, or an OIDC login refused: read the fragment once, on arrival, clear it, then sign in with it or say why.
  useEffect(() => {
    const fragment = signInFromFragment(window.location.hash);
    const refused = oidcRefusalFromFragment(window.location.hash);
    if (!fragment && !refused) return;
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
    if (refused) setProblems([{ message: t(oidcRefusalKey(refused)), code: refused.kind }]);
    if (!fragment) return;
    setFromLink(true);
    if (fragment.store) setStore(fragment.store);
    if (fragment.email) setEmail(fragment.email);
    void enter(fragment).finally(() => setFromLink(false));
  }, []);

  useEffect(() => {
    if (sent) codeInput.current?.focus();
  }, [sent]);

  const ask = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblems([]);
    const result = await requestCode({ input: { store: store.trim(), email: email.trim() } });
    setBusy(false);
    if (result.error) setProblems(refusals(result.error));
    else setSent({ minutes: Math.round((result.data?.auth_login_code_request?.expires_in_seconds ?? 600) / 60) });
  };

  const withProvider = () => {
    const handle = store.trim();
    if (!handle) {
      setProblems([{ message: t('signIn.oidc.storeFirst'), field: 'store' }]);
      return;
    }
    remember(handle);
    startOidc(handle, from);
  };

  const verify = (event: FormEvent) => {
    event.preventDefault();
    void enter({ store: store.trim(), email: email.trim(), code: code.trim() });
  };

  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Stack>
          <Title order={1} size="h2">
            {t('signIn.title')}
          </Title>
          {arrival.expired && <Alert color="yellow">{t('signIn.expired')}</Alert>}
          {arrival.signedOut && <Alert color="blue">{t('signIn.signedOut')}</Alert>}
          {fromLink && <Text role="status">{t('signIn.fromLink')}</Text>}
          <ErrorNotice list={others} />
          {!sent ? (
            <form onSubmit={ask} noValidate>
              <Stack>
                <Text size="sm" c="dimmed">
                  {t('signIn.intro')}
                </Text>
                <TextInput
                  label={t('signIn.store')}
                  description={t('signIn.storeHint')}
                  value={store}
                  onChange={(e) => setStore(e.currentTarget.value)}
                  error={fields.store}
                  required
                  autoComplete="organization"
                  autoCapitalize="none"
                  spellCheck={false}
                />
                <TextInput
                  label={t('signIn.email')}
                  type="email"
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                  error={fields.email}
                  required
                  autoComplete="email"
                />
                <Button type="submit" loading={busy}>
                  {t('signIn.requestCode')}
                </Button>
                {provider && (
                  <>
                    <Divider label={t('signIn.or')} labelPosition="center" />
                    <Button variant="default" onClick={withProvider} disabled={busy}>
                      {t('signIn.oidc.with', { provider })}
                    </Button>
                  </>
                )}
              </Stack>
            </form>
          ) : (
            <form onSubmit={verify} noValidate>
              <Stack>
                <Alert color="blue" role="status">
                  {t('signIn.codeSent', { email: email.trim(), store: store.trim(), minutes: sent.minutes })}
                </Alert>
                <TextInput
                  ref={codeInput}
                  label={t('signIn.code')}
                  description={t('signIn.codeHint')}
                  value={code}
                  onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
                  error={fields.code}
                  required
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                />
                <Button type="submit" loading={busy}>
                  {t('signIn.verify')}
                </Button>
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => {
                    setSent(null);
                    setCode('');
                    setProblems([]);
                  }}
                >
                  {t('signIn.another')}
                </Anchor>
              </Stack>
            </form>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
