import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/** Asks before an action that cannot simply be taken back (revoke a key, uninstall an app): keep, the default, or go on. */
export function ConfirmDialog(props: {
  opened: boolean;
  title: string;
  question: string;
  keep: string;
  confirm: string;
  close: string;
  busy: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} closeButtonProps={{ 'aria-label': props.close }} centered>
      <Stack>
        <Text>{props.question}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {props.keep}
          </Button>
          <Button color="red" loading={props.busy} onClick={props.onConfirm}>
            {props.confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
