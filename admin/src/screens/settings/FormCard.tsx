import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { type FormEvent, type ReactNode, useId } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { Refusal } from '../../graphql/errors';

/**
 * A settings form in its own labelled region: its title, its fields, the refusals no field shows (an
 * alert), then submit and cancel. The browser's own validation is off: the server judges, in words.
 */
export function FormCard(props: {
  title: string;
  onSubmit: (event: FormEvent) => void;
  others: readonly Refusal[];
  busy: boolean;
  submit: string;
  cancel: string;
  onCancel: () => void;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <form onSubmit={props.onSubmit} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4" id={titleId}>
            {props.title}
          </Title>
          {props.children}
          <ErrorNotice list={props.others} />
          <Group>
            <Button type="submit" loading={props.busy}>
              {props.submit}
            </Button>
            <Button variant="default" onClick={props.onCancel}>
              {props.cancel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
