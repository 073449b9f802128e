import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from 'urql';
import { ErrorNotice } from '../components/ErrorNotice';
import { byField, type Refusal, refusals } from '../graphql/errors';
import { ApiKeyRotate } from '../graphql/operations';

/** The overlap a rotation offers by default, as the server's (iam.api_key.rotate: 0 to 8760 hours, default 24). */
const OVERLAP_DEFAULT = 24;
const OVERLAP_MAX = 8760;

/**
 * Rotate a key, asked first: how long the old token keeps working (0: refused at once). The new token
 * goes to `rotated` (shown once by the caller's dialog); it is asked through the client directly, so
 * urql keeps no result holding it.
 */
export function RotateDialog({ target, close, rotated }: { target: { id: string; name: string } | null; close: () => void; rotated: (token: string) => void }) {
  const { t } = useTranslation();
  const client = useClient();
  const [overlap, setOverlap] = useState<number | string>(OVERLAP_DEFAULT);
  const [busy, setBusy] = useState(false);
  const [field, setField] = useState<string | undefined>();
  const [others, setOthers] = useState<Refusal[]>([]);

  const done = () => {
    setOverlap(OVERLAP_DEFAULT);
    setField(undefined);
    setOthers([]);
    close();
  };
  const rotate = async () => {
    if (!target) return;
    setBusy(true);
    setField(undefined);
    setOthers([]);
    const input = { api_key_id: target.id, ...(overlap === '' ? {} : { overlap_hours: Number(overlap) }) };
    const result = await client.mutation(ApiKeyRotate, { input }, { additionalTypenames: ['ApiKey'] }).toPromise();
    setBusy(false);
    const token = result.data?.iam_api_key_rotate?.token;
    if (!result.error && token) {
      done();
      rotated(token);
    } else if (result.error) {
      const found = byField(refusals(result.error));
      setField(found.fields.overlap_hours);
      setOthers([
        ...found.others,
        ...Object.entries(found.fields)
          .filter(([k]) => k !== 'overlap_hours')
          .map(([, message]) => ({ message })),
      ]);
    }
  };

  return (
    <Modal opened={target !== null} onClose={done} title={t('apiKeys.rotateTitle')} closeButtonProps={{ 'aria-label': t('apiKeys.token.close') }} centered>
      <Stack>
        <Text>{t('apiKeys.rotateQuestion', { name: target?.name ?? '' })}</Text>
        <NumberInput
          label={t('apiKeys.fields.overlapHours')}
          description={t('apiKeys.fields.overlapHint')}
          min={0}
          max={OVERLAP_MAX}
          allowDecimal={false}
          allowNegative={false}
          value={overlap}
          onChange={setOverlap}
          error={field}
        />
        <ErrorNotice list={others} />
        <Group justify="flex-end">
          <Button variant="default" onClick={done}>
            {t('apiKeys.cancel')}
          </Button>
          <Button loading={busy} onClick={rotate}>
            {t('apiKeys.confirmRotate')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
