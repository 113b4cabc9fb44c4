/**
 * The peers of the production-configuration build, in one process the browser tests start:
 *   an SMTP server (smtp-server) on FAKE_SMTP_PORT collecting every message,
 *   the reCAPTCHA Enterprise assessment fake on FAKE_ASSESSMENT_PORT,
 *   the company's CRM receiving the site's webhooks (each signature checked) on FAKE_WEBHOOK_PORT,
 * and a control API on FAKE_PEERS_CONTROL_PORT:
 *   GET /__control/mail          every message received: { from, to, subject, raw }
 *   GET /__control/assessments   every assessment request: { url, body }
 *   GET /__control/webhooks      every webhook received: { id, signed, body, event }
 *   GET /__control/health        200 once all three listen
 */
import { createServer } from 'node:http';
import { startFakeAssessment, startSmtpServer } from './enquiry-peers';
import { startWebhookReceiver } from './webhook-receiver';

const smtpPort = Number(process.env.FAKE_SMTP_PORT ?? 4025);
const assessmentPort = Number(process.env.FAKE_ASSESSMENT_PORT ?? 4026);
const controlPort = Number(process.env.FAKE_PEERS_CONTROL_PORT ?? 4027);
const webhookPort = Number(process.env.FAKE_WEBHOOK_PORT ?? 4028);

const smtp = await startSmtpServer(smtpPort);
const assessment = await startFakeAssessment(assessmentPort);
const webhooks = await startWebhookReceiver({ port: webhookPort });

/** The Subject header, unfolded (nodemailer folds long headers over several lines). */
const subjectOf = (raw: string) => {
  const headers = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return /^Subject: (.*)$/m.exec(headers)?.[1]?.trim() ?? '';
};

createServer((request, response) => {
  const json = (value: unknown) => {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(value));
  };
  if (request.url === '/__control/mail') return json(smtp.received.map((mail) => ({ ...mail, subject: subjectOf(mail.raw) })));
  if (request.url === '/__control/assessments') return json(assessment.requests);
  if (request.url === '/__control/webhooks') return json(webhooks.received);
  if (request.url === '/__control/health') return json({ ok: true });
  response.writeHead(404).end();
}).listen(controlPort, '127.0.0.1', () => {
  console.log(`Production peers: SMTP ${smtpPort}, assessments ${assessmentPort}, control ${controlPort}`);
});
