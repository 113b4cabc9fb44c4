import { expect, test } from './support/test';
import { parseMail } from '../support/mail-message';
import { peersControlUrl, productionConfigEnv } from './test-env';

// The contact form posted before any script ran, against the production-configuration build (reCAPTCHA
// on, SMTP, the CRM on another origin): what a phone that never loads the page's JavaScript gets. It
// belongs to the smoke set, which the test command also runs under the other supported Node line.

type ReceivedMail = { from: string; to: string[]; subject: string; raw: string };

async function mailWithSubject(subject: string): Promise<ReceivedMail[]> {
  const all = (await (await fetch(`${peersControlUrl}/__control/mail`)).json()) as ReceivedMail[];
  return all.filter((mail) => mail.subject === subject);
}

test.use({ javaScriptEnabled: false });

test(
  'phone without JavaScript: the form posts itself, the reference is shown, and the company is told by SMTP that nothing checked it',
  { tag: '@smoke' },
  async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Send us a message' });
    const subject = `No script on a phone ${Date.now()}`;
    await form.getByLabel(/^Name/).fill('Seònaid Wójcik');
    await form.getByLabel(/^Email/).fill('seonaid@example.com');
    await form.getByLabel(/^Subject/).fill(subject);
    await form.getByLabel(/^Message/).fill('Water came through the kitchen ceiling overnight.');
    const posted = page.waitForResponse((response) => response.request().method() === 'POST');
    await form.getByRole('button', { name: 'Send message' }).click();
    expect((await posted).status()).toBe(303);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Message sent');
    await expect(page.getByText('Your message has been sent successfully!')).toBeVisible();
    const reference = (await page.getByTestId('enquiry-reference').locator('strong').textContent()) ?? '';
    expect(reference).toMatch(/^HC-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}$/);
    for (const url of urls) expect(url).not.toMatch(/W%C3%B3jcik|Wójcik|seonaid|kitchen/i);

    const expectedSubject = `Enquiry ${reference}: ${subject}`;
    await expect.poll(async () => (await mailWithSubject(expectedSubject)).length, { timeout: 15_000 }).toBe(1);
    const [mail] = await mailWithSubject(expectedSubject);
    expect(mail!.to).toEqual([productionConfigEnv.ENQUIRY_TO]);
    expect(parseMail(mail!.raw).text.split('\n')[0]).toBe(
      "NOT CHECKED BY BOT PROTECTION: sent from a browser that had not run the page's JavaScript. No acknowledgement was sent to the address given.",
    );
  },
);
