import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { useScopes } from '../../components/useScopes';
import { useTitle } from '../../components/useTitle';
import { NotificationChannels } from '../../graphql/operations';
import { ChannelList } from './ChannelList';
import { ChannelRegisterForm } from './ChannelRegisterForm';
import { MessageLog } from './MessageLog';
import { TemplateEditor } from './TemplateEditor';

/** The scopes of what this page offers, as each operation declares (the server checks them anyway). */
const NOTIFICATION_SCOPES = {
  settings: 'tenant.settings.write',
  register: 'extensions.write',
  resend: 'order.write',
} as const;

/**
 * Settings → Notifications: the channels with each message type's switch, a channel's registration,
 * the template editor with its server-rendered preview, and the message log with resend.
 */
export function Notifications() {
  const { t } = useTranslation();
  useTitle(t('notifications.title'));
  const can = useScopes();
  const [{ data, fetching, error }, reexecute] = useQuery({ query: NotificationChannels });
  const channels = data?.notification_channels?.edges.map((e) => e.node) ?? [];
  const refresh = () => reexecute({ requestPolicy: 'network-only' });

  return (
    <Stack>
      <Anchor component={Link} to="/settings" size="sm">
        {t('apiKeys.back')}
      </Anchor>
      <Title order={1}>{t('notifications.title')}</Title>
      <Text>{t('notifications.intro')}</Text>
      {error && <ErrorNotice error={error} />}
      {fetching && !data ? (
        <Loading />
      ) : (
        data && (
          <>
            <ChannelList channels={channels} canSwitch={can(NOTIFICATION_SCOPES.settings)} changed={refresh} />
            {can(NOTIFICATION_SCOPES.register) && <ChannelRegisterForm registered={refresh} />}
            <TemplateEditor channels={channels} canWrite={can(NOTIFICATION_SCOPES.settings)} />
          </>
        )
      )}
      <MessageLog canResend={can(NOTIFICATION_SCOPES.resend)} />
    </Stack>
  );
}
