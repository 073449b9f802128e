import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** A section of the Settings page: its heading, then each of its screens as a link with a line saying what it holds. */
export function SettingsSection({ id, title, links }: { id: string; title: string; links: { to: string; label: string; hint: string }[] }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Stack gap="xs">
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        {links.map((link) => (
          <Stack gap={0} key={link.to}>
            <Anchor component={Link} to={link.to}>
              {link.label}
            </Anchor>
            <Text size="sm" c="dimmed">
              {link.hint}
            </Text>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
