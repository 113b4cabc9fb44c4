import 'server-only';
import { business } from '@/content/business';
import { config, parseConfig, type EnquirySettings, type RecaptchaConfig } from '@/server/base/config.mjs';

export type { RecaptchaConfig };

/** The enquiry settings (server/base/config.mjs), with the company's own address as the default sender and recipient. */
export type EnquiryConfig = Omit<EnquirySettings, 'to' | 'from'> & { to: string; from: string };

/**
 * The enquiry settings of the process's configuration (read once, `config()`), or of `env` when given
 * (tests, tools); a bad value throws an error naming the variable.
 */
export function loadEnquiryConfig(env?: Record<string, string | undefined>): EnquiryConfig {
  const { enquiries } = env ? parseConfig(env) : config();
  return { ...enquiries, to: enquiries.to ?? business.email, from: enquiries.from ?? business.email };
}
