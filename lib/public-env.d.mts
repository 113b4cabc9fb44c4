export type PublicEnv = {
  readonly NEXT_PUBLIC_API_URL: string;
  readonly NEXT_PUBLIC_CRM_URL: string;
  readonly NEXT_PUBLIC_RECAPTCHA_SITE_KEY: string;
};
export function readPublicEnv(env: Record<string, string | undefined>): PublicEnv;
export const publicEnv: PublicEnv;
