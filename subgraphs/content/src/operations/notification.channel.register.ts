import { conflict, t, validationFailed, sqlOf } from '@backoffice/platform';
import {
  CHANNEL_FIELDS_MAX,
  CHANNELS_MAX,
  FIELD_OPTIONS_MAX,
  EMAIL_CHANNEL,
  FIELD_TYPES,
  KEY_PATTERN,
  channelKeyField,
  type FieldDeclaration,
} from '../domain/notifications';
import { notificationConfigUpdated } from '../events';
import { defineContentOperation } from '../ports';

const fieldDeclaration = t.object({
  name: t.string({ minLength: 1, maxLength: 64, pattern: KEY_PATTERN, description: 'lowercase letter, then lowercase letters, digits, underscores' }),
  label: t.string({ minLength: 1, maxLength: 120 }),
  type: t.enum(FIELD_TYPES),
  help: t.optional(t.string({ maxLength: 400 })),
  options: t.optional(
    t.array(t.object({ value: t.string({ maxLength: 200 }), label: t.string({ maxLength: 200 }) }), {
      maxItems: FIELD_OPTIONS_MAX,
      description: 'the choices of a select field',
    }),
  ),
  required: t.optional(t.boolean()),
  template: t.optional(t.boolean({ description: 'the value is a template rendered per message (Handlebars)' })),
});

/** Registers a message channel and the shape of its template; registering the key again updates it. */
export const notificationChannelRegister = defineContentOperation({
  name: 'notification.channel.register',
  kind: 'command',
  access: 'internal',
  scope: 'extensions.write',
  summary:
    'Registers a message channel and the fields of its template (what the admin editor draws and the platform ' +
    'validates). Registering the same key again updates the declaration. The built-in channel email cannot be ' +
    'registered over.',
  input: t.object({
    key: channelKeyField,
    label: t.string({ minLength: 1, maxLength: 80 }),
    variant_schema: t.array(fieldDeclaration, { maxItems: CHANNEL_FIELDS_MAX, description: 'no field name twice; options only (and at least one) for select' }),
    extension_id: t.optional(t.nullable(t.string({ minLength: 1, maxLength: 120 }))),
    notice: t.optional(t.nullable(t.string({ minLength: 1, maxLength: 400 }))),
  }),
  result: t.object({ channel_key: t.string() }),
  events: [notificationConfigUpdated],
  async handler({ input, actor, db, stage, emit }) {
    const tenantId = actor.tenant_id;
    if (input.key === EMAIL_CHANNEL.key) throw conflict('email is the built-in channel: it cannot be registered over', { reason: 'duplicate', field: 'key' });
    const names = input.variant_schema.map((f) => f.name);
    const twice = names.find((name, i) => names.indexOf(name) !== i);
    if (twice !== undefined) throw validationFailed(`variant_schema names field ${twice} twice`, { reason: 'duplicate', field: 'variant_schema' });
    for (const field of input.variant_schema) {
      if (field.type === 'select' && !field.options?.length)
        throw validationFailed(`variant_schema field ${field.name}: a select field needs options`, { reason: 'required', field: 'variant_schema' });
      if (field.type !== 'select' && field.options !== undefined)
        throw validationFailed(`variant_schema field ${field.name}: options are for select fields only`, {
          reason: 'invalid_combination',
          field: 'variant_schema',
        });
    }
    await db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 12))`, [`content.notification_channel:${tenantId}`]);
    const [{ count, present }] = await sqlOf(db).rows<{ count: number; present: boolean | null }>(
      `SELECT count(*)::int AS count, bool_or(key = $2) AS present FROM content.notification_channel WHERE tenant_id = $1`,
      [tenantId, input.key],
    );
    if (!present && count >= CHANNELS_MAX) throw conflict(`the tenant has ${CHANNELS_MAX} notification channels already`, { reason: 'limit_reached' });
    const schema: FieldDeclaration[] = input.variant_schema.map((f) => ({ ...f }));
    stage(
      `INSERT INTO content.notification_channel (tenant_id, key, label, notice, extension_id, variant_schema) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant_id, key) DO UPDATE SET label = EXCLUDED.label, notice = EXCLUDED.notice, extension_id = EXCLUDED.extension_id,
         variant_schema = EXCLUDED.variant_schema, updated_at = clock_timestamp()`,
      [tenantId, input.key, input.label, input.notice ?? null, input.extension_id ?? null, JSON.stringify(schema)],
    );
    emit(notificationConfigUpdated, { change: 'channel', channel_key: input.key, type_key: null, store_id: null, locale: null, enabled: null });
    return { channel_key: input.key };
  },
});
