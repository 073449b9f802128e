import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled part of a screen (a `section` under an h2), as the order page and the product editor are made of. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack component="section" gap="xs">
      <Title order={2} size="h3">
        {title}
      </Title>
      {children}
    </Stack>
  );
}
