import 'server-only';
import { errorLogsMigration } from '@/server/base/migrations/0001-error-logs';
import { enquiriesMigration } from '@/server/base/migrations/0002-enquiries';
import { errorLogReporterMigration } from '@/server/base/migrations/0003-error-log-reporter';
import { claimsReferencesAcknowledgementsMigration } from '@/server/base/migrations/0004-claims-references-acknowledgements';
import { enquiryPhotosMigration } from '@/server/base/migrations/0005-enquiry-photos';
import { enquiryAbuseLimitsMigration } from '@/server/base/migrations/0006-enquiry-abuse-limits';
import { enquiryAttributionMigration } from '@/server/base/migrations/0007-enquiry-attribution';
import { digestsMigration } from '@/server/base/migrations/0008-digests';
import { errorLogGroupsMigration } from '@/server/base/migrations/0009-error-log-groups';
import { photosFollowUpMigration } from '@/server/base/migrations/0010-photos-follow-up';
import { urgencyAndInstructionsMigration } from '@/server/base/migrations/0011-urgency-and-instructions';
import { enquiryKeysMigration } from '@/server/base/migrations/0012-enquiry-keys';
import { claimStagesMigration } from '@/server/base/migrations/0013-claim-stages';
import { stageEmailsMigration } from '@/server/base/migrations/0014-stage-emails';
import { supportNeedsMigration } from '@/server/base/migrations/0015-support-needs';
import { laterPhotosAndLinkUsesMigration } from '@/server/base/migrations/0016-later-photos-and-link-uses';
import { crmWebhooksMigration } from '@/server/base/migrations/0017-crm-webhooks';
import { claimLinkKeysMigration } from '@/server/base/migrations/0018-claim-link-keys';
import { staffLinkRenewalMigration } from '@/server/base/migrations/0019-staff-link-renewal';
import { editedResendsMigration } from '@/server/base/migrations/0020-edited-resends';
import { dryingRecordMigration } from '@/server/base/migrations/0021-drying-record';
import { dryingWebhooksMigration } from '@/server/base/migrations/0022-drying-webhooks';
import { driedConfirmedByMigration } from '@/server/base/migrations/0023-dried-confirmed-by';
import { crmOwedReceivedMigration } from '@/server/base/migrations/0024-crm-owed-received';
import { dryingDocumentsMigration } from '@/server/base/migrations/0025-drying-documents';
import { instructingOrganisationsMigration } from '@/server/base/migrations/0026-instructing-organisations';
import { portfolioLinkMailsMigration } from '@/server/base/migrations/0027-portfolio-link-mails';
import { instructionProofMigration } from '@/server/base/migrations/0028-instruction-proof';
import { portfolioSessionsMigration } from '@/server/base/migrations/0029-portfolio-sessions';
import { linkRequestsWithoutPeopleMigration } from '@/server/base/migrations/0030-link-requests-without-people';
import { surveyAppointmentsMigration } from '@/server/base/migrations/0031-survey-appointments';
import { surveyRemindersMigration } from '@/server/base/migrations/0032-survey-reminders';
import { appointmentChangesMigration } from '@/server/base/migrations/0033-appointment-changes';

import type { Transaction } from '@libsql/client';

/** Statements, then (optionally) work SQL alone cannot do, in the same transaction. */
export type Migration = { id: string; statements: readonly string[]; after?: (tx: Transaction) => Promise<void> };

/** Applied in order, each once, inside a transaction; never edit one that has shipped: add a new one. */
export const migrations: readonly Migration[] = [
  errorLogsMigration,
  enquiriesMigration,
  errorLogReporterMigration,
  claimsReferencesAcknowledgementsMigration,
  enquiryPhotosMigration,
  enquiryAbuseLimitsMigration,
  enquiryAttributionMigration,
  digestsMigration,
  errorLogGroupsMigration,
  photosFollowUpMigration,
  urgencyAndInstructionsMigration,
  enquiryKeysMigration,
  claimStagesMigration,
  stageEmailsMigration,
  supportNeedsMigration,
  laterPhotosAndLinkUsesMigration,
  crmWebhooksMigration,
  claimLinkKeysMigration,
  staffLinkRenewalMigration,
  editedResendsMigration,
  dryingRecordMigration,
  dryingWebhooksMigration,
  driedConfirmedByMigration,
  crmOwedReceivedMigration,
  dryingDocumentsMigration,
  instructingOrganisationsMigration,
  portfolioLinkMailsMigration,
  instructionProofMigration,
  portfolioSessionsMigration,
  linkRequestsWithoutPeopleMigration,
  surveyAppointmentsMigration,
  surveyRemindersMigration,
  appointmentChangesMigration,
];
