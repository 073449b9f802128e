import { Anchor, Button, Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { filled } from '../../components/form';
import { webAddress } from '../../components/links';
import type { MediaKind, MediaOwnerType } from '../../gql/graphql';
import { AttachMedia } from '../../graphql/operations';
import { integer, outcome, type Product } from './form';

const KINDS: readonly MediaKind[] = ['image', 'document', 'video_external'];
type MediaItem = Product['media'][number];
interface Owner {
  type: MediaOwnerType;
  id: string;
  /** What the owner is called in labels: the product's title or the SKU's code. */
  label: string;
}

/**
 * Attaches a media reference (catalog.media.attach): the provider's key (a web address is served as the
 * media's URL), kind, alternative text, position (empty: after the last) and role. The same key again
 * updates that media.
 */
function AttachForm({ owner, onSaved }: { owner: Owner; onSaved: () => void }) {
  const { t } = useTranslation();
  const [key, setKey] = useState('');
  const [kind, setKind] = useState<MediaKind>('image');
  const [alt, setAlt] = useState('');
  const [position, setPosition] = useState('');
  const [role, setRole] = useState('');
  const [state, attach] = useMutation(AttachMedia);
  const { fields, others } = outcome(state.error, ['provider_key', 'kind', 'alt', 'position', 'role']);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const at = integer(position);
    const result = await attach({
      input: {
        owner_type: owner.type,
        owner_id: owner.id,
        provider_key: key.trim(),
        kind,
        ...filled('alt', alt),
        ...filled('role', role),
        ...(at === undefined ? {} : { position: at }),
      },
    });
    if (!result.data?.catalog_media_attach) return;
    setKey('');
    setAlt('');
    setPosition('');
    setRole('');
    onSaved();
  };
  return (
    <Stack component="form" gap="xs" onSubmit={submit} aria-label={t('product.media.attachTo', { owner: owner.label })}>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label={t('product.media.key')}
          description={t('product.media.keyHint')}
          required
          maxLength={2000}
          value={key}
          onChange={(e) => setKey(e.currentTarget.value)}
          error={fields.provider_key}
        />
        <NativeSelect
          label={t('product.media.kind')}
          value={kind}
          onChange={(e) => setKind(e.currentTarget.value as MediaKind)}
          data={KINDS.map((k) => ({ value: k, label: t(`product.media.kinds.${k}`) }))}
          error={fields.kind}
        />
        <TextInput label={t('product.media.alt')} maxLength={1000} value={alt} onChange={(e) => setAlt(e.currentTarget.value)} error={fields.alt} />
        <TextInput
          label={t('product.media.position')}
          description={t('product.media.positionHint')}
          inputMode="numeric"
          value={position}
          onChange={(e) => setPosition(e.currentTarget.value)}
          error={fields.position}
        />
        <TextInput label={t('product.media.role')} maxLength={100} value={role} onChange={(e) => setRole(e.currentTarget.value)} error={fields.role} />
      </SimpleGrid>
      <ErrorNotice list={others} />
      <Group>
        <Button type="submit" variant="default" size="xs" loading={state.fetching}>
          {t('product.media.attach', { owner: owner.label })}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * A product's or a SKU's media, by position, and the form attaching one. Media are listed, never
 * loaded: an address is a link that opens apart (the admin fetches nothing from another origin).
 */
export function Media({ owner, media, onSaved }: { owner: Owner; media: readonly MediaItem[]; onSaved: () => void }) {
  const { t } = useTranslation();
  const sorted = [...media].sort((a, b) => a.position - b.position);
  return (
    <Stack gap="xs">
      {sorted.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('product.media.none', { owner: owner.label })}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label={t('product.media.of', { owner: owner.label })}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('product.media.position')}</Table.Th>
                <Table.Th scope="col">{t('product.media.kind')}</Table.Th>
                <Table.Th scope="col">{t('product.media.key')}</Table.Th>
                <Table.Th scope="col">{t('product.media.alt')}</Table.Th>
                <Table.Th scope="col">{t('product.media.role')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sorted.map((item) => {
                const href = webAddress(item.url);
                return (
                  <Table.Tr key={item.media_id}>
                    <Table.Td>{item.position}</Table.Td>
                    <Table.Td>{t(`product.media.kinds.${item.kind}`)}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>
                      {href ? (
                        <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm">
                          {item.provider_key}
                        </Anchor>
                      ) : (
                        <Text component="span" ff="monospace" size="sm">
                          {item.provider_key}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{item.alt ?? t('common.empty')}</Table.Td>
                    <Table.Td>{item.role ?? t('common.empty')}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <AttachForm owner={owner} onSaved={onSaved} />
    </Stack>
  );
}
