import 'server-only';
import { business } from '@/content/business';
import { loadConfig, type EnquirySettings, type RecaptchaConfig } from '@/server/config.mjs';

export type { RecaptchaConfig };

/** The enquiry settings (server/config.mjs), with the company's own address as the default sender and recipient. */
export type EnquiryConfig = Omit<EnquirySettings, 'to' | 'from'> & { to: string; from: string };

/** Reads the enquiry settings from the environment; a bad value throws an error naming the variable. */
export function loadEnquiryConfig(env: Record<string, string | undefined> = process.env): EnquiryConfig {
  const { enquiries } = loadConfig(env);
  return { ...enquiries, to: enquiries.to ?? business.email, from: enquiries.from ?? business.email };
}
