import { t } from '@backoffice/platform';

/** Personal fields shown to an actor without `pii.read`: same shape, values hidden. */
export const MASK = '***';

export const customerView = t.object({ email: t.string(), name: t.nullable(t.string()), phone: t.nullable(t.string()) });
export const addressView = t.nullable(
  t.object({
    name: t.string(),
    line1: t.string(),
    line2: t.nullable(t.string()),
    city: t.string(),
    region: t.nullable(t.string()),
    postal_code: t.string(),
    country: t.string(),
  }),
);

type Customer = { email: string; name?: string; phone?: string };
type Address = { name: string; line1: string; line2?: string; city: string; region?: string; postal_code: string; country: string };

const masked = (value: string | undefined, show: boolean) => (value === undefined ? null : show ? value : MASK);

/** The customer as the actor may see it: everything, or masked (the email keeps its domain, for support). */
export function customerFor(customer: Customer, pii: boolean) {
  const domain = customer.email.split('@')[1] ?? '';
  return { email: pii ? customer.email : `${MASK}@${domain}`, name: masked(customer.name, pii), phone: masked(customer.phone, pii) };
}

/** The address as the actor may see it: the country stays (it is not personal on its own). */
export function addressFor(address: Address | null, pii: boolean) {
  if (!address) return null;
  return {
    name: masked(address.name, pii)!,
    line1: masked(address.line1, pii)!,
    line2: masked(address.line2, pii),
    city: masked(address.city, pii)!,
    region: masked(address.region, pii),
    postal_code: masked(address.postal_code, pii)!,
    country: address.country,
  };
}
