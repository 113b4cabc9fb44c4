import { describe, expect, it } from 'vitest';
import { buildSettingsOf, changedBuildSettings, describeChanges } from '@/server/base/build-settings.mjs';
import { BUILD_TIME_VARIABLES } from '@/server/base/config.mjs';

const built = buildSettingsOf({ SITE_URL: 'https://www.example.com', NEXT_PUBLIC_CRM_URL: 'https://crm.example.com/' });

describe('the settings a build fixes', () => {
  it('are SITE_URL and every NEXT_PUBLIC_* value the code reads', () => {
    expect(BUILD_TIME_VARIABLES).toEqual([
      'SITE_URL',
      'NEXT_PUBLIC_API_URL',
      'NEXT_PUBLIC_CRM_URL',
      'NEXT_PUBLIC_RECAPTCHA_SITE_KEY',
      'NEXT_PUBLIC_E2E_FAULTS',
      'GALLERY_REFRESH_SECONDS',
    ]);
  });

  it('match when the environment asks for the same values (unset as empty, trailing slashes and spaces aside)', () => {
    expect(
      changedBuildSettings(built, {
        SITE_URL: ' https://www.example.com/ ',
        NEXT_PUBLIC_CRM_URL: 'https://crm.example.com',
        NEXT_PUBLIC_API_URL: '',
      }),
    ).toEqual([]);
  });

  it('name each variable that differs, with both values', () => {
    const changes = changedBuildSettings(built, {
      NEXT_PUBLIC_CRM_URL: 'https://crm.example.com',
      NEXT_PUBLIC_RECAPTCHA_SITE_KEY: 'key-1',
    });
    expect(changes).toEqual([
      { name: 'SITE_URL', built: 'https://www.example.com', now: '' },
      { name: 'NEXT_PUBLIC_RECAPTCHA_SITE_KEY', built: '', now: 'key-1' },
    ]);
    expect(describeChanges(changes)).toBe(
      '  SITE_URL: built with https://www.example.com, now (empty)\n  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: built with (empty), now key-1',
    );
  });

  it('a build that recorded none differs in every one', () => {
    expect(changedBuildSettings(undefined, {}).map((change) => change.name)).toEqual([...BUILD_TIME_VARIABLES]);
    expect(describeChanges(changedBuildSettings(undefined, { SITE_URL: 'https://a.example' }))).toContain(
      'SITE_URL: built with not recorded, now https://a.example',
    );
  });
});
