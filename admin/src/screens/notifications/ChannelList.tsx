import { Badge, Group, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { NotificationChannelsQuery } from '../../gql/graphql';
import { type Refusal, refusals } from '../../graphql/errors';
import { NotificationChannelSetEnabled } from '../../graphql/operations';
import { typeLabel } from './labels';

export type Channel = NonNullable<NotificationChannelsQuery['notification_channels']>['edges'][number]['node'];

/** One channel: its fields, and a switch per message type (tenant-wide); a refusal (a template lacking a required field) said under it. */
function ChannelCard({ channel, canSwitch, changed }: { channel: Channel; canSwitch: boolean; changed: () => void }) {
  const { t } = useTranslation();
  const [{ fetching }, setEnabled] = useMutation(NotificationChannelSetEnabled);
  const [errors, setErrors] = useState<Refusal[]>([]);
  const headingId = `channel-${channel.channel_key}`;

  const toggle = async (type: string, enabled: boolean) => {
    setErrors([]);
    const result = await setEnabled({ input: { type_key: type, channel_key: channel.channel_key, enabled } });
    if (result.error) setErrors(refusals(result.error));
    changed();
  };

  return (
    <Paper withBorder p="md" component="article" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Group gap="xs">
          <Title order={3} size="h4" id={headingId}>
            {channel.label}
          </Title>
          <Text size="sm" ff="monospace" c="dimmed">
            {channel.channel_key}
          </Text>
          {channel.built_in && (
            <Badge variant="light" color="blue">
              {t('notifications.channels.builtIn')}
            </Badge>
          )}
        </Group>
        {channel.notice && <Text size="sm">{channel.notice}</Text>}
        <Text size="sm">
          {t('notifications.channels.fields')} {channel.variant_schema.map((f) => `${f.label}${f.required ? ' *' : ''}`).join(', ')}
        </Text>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('notifications.channels.type')}</Table.Th>
              <Table.Th scope="col">{t('notifications.channels.sent')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {channel.message_types.map((type) => (
              <Table.Tr key={type.type_key}>
                <Table.Td>
                  {typeLabel(t, type.type_key)}{' '}
                  <Text span size="xs" ff="monospace" c="dimmed">
                    {type.type_key}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Switch
                    checked={type.enabled}
                    disabled={!canSwitch || type.always || fetching}
                    onChange={(e) => toggle(type.type_key, e.currentTarget.checked)}
                    aria-label={t('notifications.channels.switch', { type: typeLabel(t, type.type_key), channel: channel.label })}
                    label={type.always ? t('notifications.channels.always') : type.enabled ? t('notifications.channels.on') : t('notifications.channels.off')}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <ErrorNotice list={errors} />
      </Stack>
    </Paper>
  );
}

/** The tenant's channels, the built-in email first among them by key. */
export function ChannelList({ channels, canSwitch, changed }: { channels: Channel[]; canSwitch: boolean; changed: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack component="section" aria-labelledby="notification-channels">
      <Title order={2} size="h3" id="notification-channels">
        {t('notifications.channels.title')}
      </Title>
      {channels.map((channel) => (
        <ChannelCard key={channel.channel_key} channel={channel} canSwitch={canSwitch} changed={changed} />
      ))}
    </Stack>
  );
}
