import { Alert, Button, CopyButton, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** What the dialog says of the secret it shows. */
export interface SecretTexts {
  title: string;
  once: string;
  label: string;
  copy: string;
}

/**
 * A secret just made (an API key's token, a webhook's signing secret), shown once. It lives only in
 * this dialog's props: closing it drops the value (the parent forgets it), and it is never put in the
 * URL, storage or urql's state (the mutation goes through the client directly, not useMutation's kept result).
 */
export function SecretDialog({ secret, close, title, once, label, copy: copyLabel }: SecretTexts & { secret: string | null; close: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={secret !== null} onClose={close} title={title} closeButtonProps={{ 'aria-label': t('apiKeys.token.close') }} centered size="lg">
      <Stack>
        <Alert color="yellow" title={t('apiKeys.token.onceTitle')}>
          {once}
        </Alert>
        <TextInput label={label} value={secret ?? ''} readOnly ff="monospace" onFocus={(e) => e.currentTarget.select()} />
        <Group justify="flex-end">
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" color={copied ? 'green' : undefined} onClick={copy}>
                {copied ? t('apiKeys.token.copied') : copyLabel}
              </Button>
            )}
          </CopyButton>
          <Button onClick={close}>{t('apiKeys.token.done')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
