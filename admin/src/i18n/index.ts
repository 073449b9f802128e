import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './locales/en';
import { es } from './locales/es';
import { ptBR } from './locales/pt-BR';

/** The languages shipped, as the operator's `locale` names them (identity's documented values). */
export const LOCALES = ['en', 'pt-BR', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language named in itself, for the language switch. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', 'pt-BR': 'Português (Brasil)', es: 'Español' };

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
  }
}

/** The operator's own choice on this browser (the language switch), kept until they choose again. */
const CHOSEN = 'backoffice.admin.locale';

/**
 * The shipped language for a language tag: the tag itself, else its language (`pt-PT` → `pt-BR`,
 * `es-MX` → `es`), else none. Case does not matter, as in BCP 47.
 */
export function supported(tag: string | null | undefined): Locale | undefined {
  if (!tag) return undefined;
  const lower = tag.toLowerCase();
  const exact = LOCALES.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const language = lower.split('-')[0];
  return LOCALES.find((l) => l.toLowerCase().split('-')[0] === language);
}

function storedChoice(): Locale | undefined {
  try {
    return supported(window.localStorage.getItem(CHOSEN));
  } catch {
    return undefined; // storage refused (privacy settings)
  }
}

/** The operator's choice on this browser, else the browser's first language shipped, else English. */
export function initialLocale(): Locale {
  return storedChoice() ?? navigator.languages.map(supported).find(Boolean) ?? supported(navigator.language) ?? 'en';
}

function apply(locale: Locale): void {
  document.documentElement.lang = locale;
  void i18next.changeLanguage(locale);
}

/** The language switch: the operator's choice, remembered on this browser. */
export function chooseLocale(locale: Locale): void {
  try {
    window.localStorage.setItem(CHOSEN, locale);
  } catch {
    // kept for this page only
  }
  apply(locale);
}

/**
 * The operator's own locale (`read_internal_whoami.locale`, which the shell reads): followed unless
 * they chose another on this browser.
 */
export function followOperatorLocale(locale: string | null | undefined): void {
  const shipped = supported(locale);
  if (shipped && !storedChoice()) apply(shipped);
}

const locale = initialLocale();
document.documentElement.lang = locale;

void i18next.use(initReactI18next).init({
  lng: locale,
  fallbackLng: 'en',
  supportedLngs: [...LOCALES],
  resources: { en: { translation: en }, 'pt-BR': { translation: ptBR }, es: { translation: es } },
  // React escapes what it renders.
  interpolation: { escapeValue: false },
  showSupportNotice: false,
});

export { i18next };
