// The database's tables as drizzle-orm sees them: the source of every row type and of every query's
// column names. The tables themselves are created by the migrations in server/base/migrations (decision
// 0008); server/base/db-schema.test.ts checks that a migrated database has exactly these columns.
import { sql } from 'drizzle-orm';
import { blob, index, integer, real, sqliteTable, text, unique, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { CLAIM_STAGE_NAMES, type ClaimStage } from '@/lib/claim-stages';
import { EQUIPMENT_KINDS, MATERIALS, SCALE_NAMES } from '@/lib/drying';
import { logCategories, logLevels } from '@/lib/error-log';

export const LOG_REPORTERS = ['server', 'visitor'] as const;
const DISPOSITIONS = ['accepted', 'spam', 'suspect'] as const;
const VERIFICATION_STATUSES = ['not-configured', 'verified', 'unverified', 'low-score', 'honeypot'] as const;
/** Why photos sent with an enquiry were not kept: its verdict (spam, suspect) or the photo storage's limits. */
const PHOTOS_DROPPED_REASONS = ['spam', 'suspect', 'storage-full'] as const;
const NOTIFICATION_STATUSES = ['pending', 'sent', 'failed'] as const;
/**
 * What an outbox job sends: the company's notification, the visitor's acknowledgement, photos that
 * reached an enquiry after its notification had gone out (migration 0010), or the customer's e-mail
 * about one change of their claim's stage (migration 0014).
 */
const JOB_KINDS = ['notification', 'acknowledgement', 'photos', 'stage', 'reminder'] as const;
const WAITING_ON_NAMES = ['us', 'insurer', 'customer'] as const;
/** Who changed a claim's stage: the company's staff page or its CRM. */
const STAGE_SOURCES = ['staff', 'crm'] as const;
/** Who changed a claim's stage: the staff page, the CRM, or the homeowner booking a survey (migration 0031). */
const STAGE_CHANGE_SOURCES = ['staff', 'crm', 'customer'] as const;

const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

/**
 * The lease columns of a worker's table (server/delivery/worker-runner.ts): its status ('pending' while
 * the job is pending), the attempts so far, when the next is due, who holds the lease and until when, and
 * the last attempt's error. Spread into the table where its status goes; the status column is the
 * table's own (its values differ).
 */
function leaseColumns<Status>(status: Status) {
  return {
    status,
    attempts: integer('attempts').notNull().default(0),
    nextAttemptMs: integer('next_attempt_ms').notNull(),
    leaseOwner: text('lease_owner'),
    leaseUntilMs: integer('lease_until_ms'),
    lastError: text('last_error'),
  };
}

/** A worker's table's index of its due jobs, `<table>_due`: what its runner claims by. */
const dueIndex = (table: string, columns: { status: AnySQLiteColumn; nextAttemptMs: AnySQLiteColumn }) =>
  index(`${table}_due`).on(columns.status, columns.nextAttemptMs);

export const errorLogs = sqliteTable(
  'error_logs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    receivedAt: text('received_at').notNull().default(nowIso),
    application: text('application').notNull(),
    // Written only after the intake's schema (server/error-log/record-schema.ts) accepted them.
    level: text('level', { enum: logLevels }).notNull(),
    category: text('category', { enum: logCategories }).notNull(),
    source: text('source').notNull(),
    message: text('message').notNull(),
    stack: text('stack'),
    metadata: text('metadata'),
    userId: text('user_id'),
    statusCode: integer('status_code'),
    path: text('path'),
    method: text('method'),
    requestPayload: text('request_payload'),
    userAgent: text('user_agent'),
    clientAddress: text('client_address'),
    reportedBy: text('reported_by', { enum: LOG_REPORTERS }).notNull().default('visitor'),
    // Migration 0009: visitors' reports of one failure are one row (server/base/error-group-key.ts): how
    // many came and when the last did; received_at is the first. The server's own entries: NULL key, 1.
    groupKey: text('group_key'),
    occurrences: integer('occurrences').notNull().default(1),
    lastSeenAt: text('last_seen_at'),
  },
  (table) => [
    index('error_logs_received_at').on(table.receivedAt),
    index('error_logs_reported_by').on(table.reportedBy, table.id),
    uniqueIndex('error_logs_group_key').on(table.groupKey),
    index('error_logs_last_seen').on(table.lastSeenAt),
  ],
);

export const enquiries = sqliteTable(
  'enquiries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    receivedAt: text('received_at').notNull(),
    receivedMs: integer('received_ms').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    clientAddress: text('client_address').notNull(),
    contentHash: text('content_hash').notNull(),
    disposition: text('disposition', { enum: DISPOSITIONS }).notNull(),
    verification: text('verification', { enum: VERIFICATION_STATUSES }).notNull(),
    recaptchaScore: real('recaptcha_score'),
    verificationDetail: text('verification_detail'),
    // Migration 0004. The reference is NULL only for enquiries stored before it existed.
    reference: text('reference'),
    claimRole: text('claim_role'),
    insurer: text('insurer'),
    claimReference: text('claim_reference'),
    damageDate: text('damage_date'),
    damageType: text('damage_type'),
    postcode: text('postcode'),
    // Migration 0005: a random key given to each submission as it is stored; names its photos' folder.
    submissionKey: text('submission_key'),
    /** What a claim's signed links are tied to: set once when stored, changed only to revoke them. */
    linkKey: text('link_key'),
    /** Migration 0019: when the operator last renewed the staff link (it expires 30 days after the claim last moved). */
    staffLinkRenewedMs: integer('staff_link_renewed_ms'),
    // Migration 0006: the address as compared (server/base/email-key.ts); photos sent but not kept.
    emailKey: text('email_key'),
    photosDropped: integer('photos_dropped').notNull().default(0),
    photosDroppedReason: text('photos_dropped_reason', { enum: PHOTOS_DROPPED_REASONS }),
    /** Migration 0016: photos added later to an enquiry that was not accepted, not kept but counted against the claim's room. */
    laterPhotosUnkept: integer('later_photos_unkept').notNull().default(0),
    // Migration 0007: where the enquiry came from (lib/visit-attribution.ts).
    sentFrom: text('sent_from'),
    landingPage: text('landing_page'),
    referrer: text('referrer'),
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmCampaign: text('utm_campaign'),
    // Migration 0011: the urgency answers (yes, no, not-sure) and whether they make it urgent (1), which
    // puts its notification ahead of others; an insurer's or loss adjuster's instruction.
    worsening: text('worsening'),
    habitable: text('habitable'),
    vulnerable: text('vulnerable'),
    urgent: integer('urgent').notNull().default(0),
    policyholderName: text('policyholder_name'),
    policyholderPhone: text('policyholder_phone'),
    propertyAddress: text('property_address'),
    vatRegistered: text('vat_registered'),
    excess: text('excess'),
    desktopAssessment: text('desktop_assessment'),
    // Migration 0012: the key the form sent with every try of this enquiry (lib/enquiry-key.ts), if any.
    enquiryKey: text('enquiry_key'),
    /**
     * Migration 0020: the hash of the fields a person typed (not the client's address), which a try with
     * this row's enquiry key must match to be this enquiry; NULL for rows stored before.
     */
    fieldsHash: text('fields_hash'),
    /** Migration 0020: the enquiry this one replaces, sent again with the same key and other words. */
    replacesId: integer('replaces_id'),
    // Migration 0015: what would help us work with the person (lib/contact-fields.ts SUPPORT_FIELDS).
    noPhoneCalls: text('no_phone_calls'),
    supportNeeds: text('support_needs'),
    /**
     * Migration 0024: 1 while the CRM is pending this accepted enquiry's `enquiry.received` event and the
     * CRM's worker has not yet written it to webhook_events (server/ledger/outbox.ts).
     */
    crmReceivedPending: integer('crm_owed_received').notNull().default(0),
    /**
     * Migration 0026, 0028: the instructing organisation whose portfolio shows the claim, once proven
     * (organisationProof says how; server/claims/instruction-proof.ts); null until then.
     */
    organisationId: integer('organisation_id').references((): AnySQLiteColumn => organisations.id),
    /** Migration 0028: the organisation whose registered domain the sender's address is at, proven or not. */
    claimedOrganisationId: integer('claimed_organisation_id').references((): AnySQLiteColumn => organisations.id),
    /** Migration 0028: how the instruction was proven to come from its organisation. */
    organisationProof: text('organisation_proof', { enum: ['session', 'mailbox', 'company'] }),
  },
  (table) => [
    index('enquiries_received_ms').on(table.receivedMs),
    index('enquiries_content_hash').on(table.contentHash, table.receivedMs),
    uniqueIndex('enquiries_reference').on(table.reference),
    uniqueIndex('enquiries_submission_key').on(table.submissionKey),
    index('enquiries_email_key').on(table.emailKey, table.receivedMs),
    index('enquiries_enquiry_key').on(table.enquiryKey, table.receivedMs),
    index('enquiries_organisation').on(table.organisationId, table.receivedMs),
    index('enquiries_crm_owed_received')
      .on(table.id)
      .where(sql`${table.crmReceivedPending} = 1`),
  ],
);

export const enquiryNotifications = sqliteTable(
  'enquiry_notifications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    enquiryId: integer('enquiry_id')
      .notNull()
      .references(() => enquiries.id),
    kind: text('kind', { enum: JOB_KINDS }).notNull().default('notification'),
    ...leaseColumns(text('status', { enum: NOTIFICATION_STATUSES }).notNull()),
    sentAt: text('sent_at'),
    messageId: text('message_id'),
    /** A 'stage' job's change (claim_stage_changes), or the change that booked or moved a 'reminder' job's visit; none for the other kinds. */
    stageChangeId: integer('stage_change_id'),
    /** A 'photos' job for photos added later from the status page: the first position of its batch (migration 0016). */
    photosFrom: integer('photos_from'),
  },
  (table) => [
    dueIndex('enquiry_notifications', table),
    // One job of each kind per enquiry, one 'stage' job per change, and one 'photos' job per batch added later.
    uniqueIndex('enquiry_notifications_one_each').on(
      table.enquiryId,
      table.kind,
      sql`coalesce(${table.stageChangeId}, 0)`,
      sql`coalesce(${table.photosFrom}, 0)`,
    ),
  ],
);

/** Migration 0013: each change of a claim's stage (lib/claim-stages.ts); none means `received`. */
export const claimStageChanges = sqliteTable(
  'claim_stage_changes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    enquiryId: integer('enquiry_id')
      .notNull()
      .references(() => enquiries.id),
    stage: text('stage', { enum: CLAIM_STAGE_NAMES as [ClaimStage, ...ClaimStage[]] }).notNull(),
    waitingOn: text('waiting_on', { enum: WAITING_ON_NAMES }),
    /** The next date the customer can expect something, YYYY-MM-DD. */
    nextDate: text('next_date'),
    /** What the company wrote for the customer. */
    note: text('note'),
    /** 0: an internal correction the customer is not told of. */
    tellCustomer: integer('tell_customer').notNull().default(1),
    source: text('source', { enum: STAGE_CHANGE_SOURCES }).notNull(),
    /** The CRM event's webhook-id: an event sent again is not applied again. */
    eventId: text('event_id'),
    /** Who confirmed drying, for a `dried` saved on the staff page (migration 0023). */
    confirmedBy: text('confirmed_by'),
    changedAt: text('changed_at').notNull(),
    changedMs: integer('changed_ms').notNull(),
  },
  (table) => [
    index('claim_stage_changes_enquiry').on(table.enquiryId, table.changedMs),
    uniqueIndex('claim_stage_changes_event').on(table.eventId),
  ],
);

/** Migration 0013: secrets the site makes for itself (`claim-links`: server/claims/claim-links.ts). */
export const siteSecrets = sqliteTable('site_secrets', {
  name: text('name').primaryKey(),
  value: blob('value', { mode: 'buffer' }).notNull(),
});

/** Migration 0016: each use of a claim's signed links (server/claims/claim-links.ts), counted per minute. */
export const claimLinkUses = sqliteTable(
  'claim_link_uses',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    enquiryId: integer('enquiry_id')
      .notNull()
      .references(() => enquiries.id),
    link: text('link', { enum: ['status', 'update'] }).notNull(),
    use: text('use', { enum: ['opened', 'saved', 'photos'] }).notNull(),
    minuteMs: integer('minute_ms').notNull(),
    uses: integer('uses').notNull().default(1),
  },
  (table) => [uniqueIndex('claim_link_uses_minute').on(table.enquiryId, table.link, table.use, table.minuteMs)],
);

export const WEBHOOK_EVENT_TYPES = [
  'enquiry.received',
  'enquiry.photos_added',
  'claim.updated',
  'claim.drying_recorded',
  'appointment.booked',
  'appointment.moved',
  'appointment.cancelled',
  'appointment.no_access',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Migration 0017: the events the company's CRM is told of (server/crm/webhooks.ts), each delivered once. */
export const webhookEvents = sqliteTable(
  'webhook_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    enquiryId: integer('enquiry_id')
      .notNull()
      .references(() => enquiries.id),
    type: text('type', { enum: WEBHOOK_EVENT_TYPES }).notNull(),
    /** The event's `webhook-id`: the same on every attempt and every resend. */
    eventId: text('event_id').notNull(),
    /** A `claim.updated` event's change. */
    stageChangeId: integer('stage_change_id').references(() => claimStageChanges.id),
    /** An `enquiry.photos_added` event's batch: its first photo's position. */
    photosFrom: integer('photos_from'),
    /** Migration 0022: a `claim.drying_recorded` event's visit. */
    dryingVisitId: integer('drying_visit_id').references(() => dryingVisits.id),
    /** Migration 0033: an `appointment.*` event's change of the survey visit. */
    appointmentChangeId: integer('appointment_change_id').references((): AnySQLiteColumn => surveyAppointmentChanges.id),
    occurredAt: text('occurred_at').notNull(),
    createdMs: integer('created_ms').notNull(),
    ...leaseColumns(
      text('status', { enum: ['pending', 'delivered', 'failed'] })
        .notNull()
        .default('pending'),
    ),
    deliveredAt: text('delivered_at'),
  },
  (table) => [
    uniqueIndex('webhook_events_event_id').on(table.eventId),
    uniqueIndex('webhook_events_one_each').on(
      table.enquiryId,
      table.type,
      sql`coalesce(${table.stageChangeId}, 0)`,
      sql`coalesce(${table.photosFrom}, 0)`,
      sql`coalesce(${table.dryingVisitId}, 0)`,
      sql`coalesce(${table.appointmentChangeId}, 0)`,
    ),
    dueIndex('webhook_events', table),
  ],
);

/** Migration 0005: the photos sent with an enquiry, re-encoded; the files are in ENQUIRY_PHOTOS_DIR/<submission key>/. */
export const enquiryPhotos = sqliteTable(
  'enquiry_photos',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    enquiryId: integer('enquiry_id')
      .notNull()
      .references(() => enquiries.id),
    position: integer('position').notNull(),
    originalName: text('original_name').notNull(),
    fileName: text('file_name').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
  },
  (table) => [unique().on(table.enquiryId, table.position)],
);

/** How often the company's digest goes out (ENQUIRY_DIGEST, when not off). */
export const DIGEST_MODES = ['weekly', 'daily'] as const;
/** What made a digest: its period ended (the schedule), or `npm run digest -- --send` during it. */
const DIGEST_TRIGGERS = ['schedule', 'command'] as const;

/**
 * Migration 0008: one row per digest period (its key unique), claimed with a lease like an outbox job,
 * so that each period's digest goes out once whatever the number of processes, restarts or clock jumps.
 */
export const digests = sqliteTable(
  'digests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    // `weekly:2026-11-23`: the mode and the London date the period starts.
    periodKey: text('period_key').notNull(),
    mode: text('mode', { enum: DIGEST_MODES }).notNull(),
    periodStartMs: integer('period_start_ms').notNull(),
    periodEndMs: integer('period_end_ms').notNull(),
    // The enquiries it reports: the period, or from where an early one left off, up to when it was asked for.
    coversFromMs: integer('covers_from_ms').notNull(),
    coversToMs: integer('covers_to_ms').notNull(),
    trigger: text('trigger', { enum: DIGEST_TRIGGERS }).notNull(),
    recipient: text('recipient').notNull(),
    ...leaseColumns(text('status', { enum: NOTIFICATION_STATUSES }).notNull()),
    createdAt: text('created_at').notNull().default(nowIso),
    sentAt: text('sent_at'),
    messageId: text('message_id'),
  },
  (table) => [uniqueIndex('digests_period_key').on(table.periodKey), dueIndex('digests', table)],
);

/** Migration 0021: a claim's drying record, its visits, their readings and the machines (lib/drying.ts). */
export const dryingVisits = sqliteTable(
  'drying_visits',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    enquiryId: integer('enquiry_id')
      .notNull()
      .references(() => enquiries.id),
    visitAt: text('visit_at').notNull(),
    visitMs: integer('visit_ms').notNull(),
    source: text('source', { enum: STAGE_SOURCES }).notNull(),
    /** The CRM event's webhook-id (a staff page Save's form token): a visit sent again is not recorded again. */
    eventId: text('event_id').notNull(),
    recordedAt: text('recorded_at').notNull(),
  },
  (table) => [uniqueIndex('drying_visits_event').on(table.eventId), index('drying_visits_enquiry').on(table.enquiryId, table.visitMs)],
);

export const dryingReadings = sqliteTable(
  'drying_readings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    visitId: integer('visit_id')
      .notNull()
      .references(() => dryingVisits.id),
    location: text('location').notNull(),
    material: text('material', { enum: MATERIALS }).notNull(),
    scale: text('scale', { enum: SCALE_NAMES }).notNull(),
    value: real('value').notNull(),
    goal: real('goal').notNull(),
    temperature: real('temperature'),
    humidity: real('humidity'),
  },
  (table) => [index('drying_readings_visit').on(table.visitId)],
);

export const dryingEquipment = sqliteTable(
  'drying_equipment',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    enquiryId: integer('enquiry_id')
      .notNull()
      .references(() => enquiries.id),
    /** lib/drying.ts machineKey: its kind, model and the time it was switched on. */
    machineKey: text('machine_key').notNull(),
    kind: text('kind', { enum: EQUIPMENT_KINDS }).notNull(),
    model: text('model').notNull(),
    watts: integer('watts').notNull(),
    count: integer('count').notNull(),
    onAt: text('on_at').notNull(),
    offAt: text('off_at'),
    kwh: real('kwh'),
    /** The visit that last said how it stands: an older visit arriving late does not undo a newer one. */
    lastVisitMs: integer('last_visit_ms').notNull(),
  },
  (table) => [uniqueIndex('drying_equipment_machine').on(table.enquiryId, table.machineKey)],
);

export type DryingDocumentKind = 'statement' | 'certificate';

/** Migration 0025: each drying document issued (server/claims/drying/issued-documents.ts). */
export const dryingDocuments = sqliteTable(
  'drying_documents',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Null once the claim is deleted: the number and digests stay, so its verification link says so. */
    enquiryId: integer('enquiry_id').references(() => enquiries.id),
    kind: text('kind', { enum: ['statement', 'certificate'] }).notNull(),
    /** 1, 2, … per claim and kind: the number's last part (E2, C1). */
    sequence: integer('sequence').notNull(),
    /** The claim's reference, E (statement) or C (certificate), and the sequence: HC-YVG-Y5S-E2. */
    number: text('number').notNull(),
    issuedAt: text('issued_at').notNull(),
    issuedMs: integer('issued_ms').notNull(),
    /** The figures as printed, JSON (lib/drying-documents.ts); null once deleted. */
    figures: text('figures'),
    /** SHA-256 of `figures`: what the verification link's signature covers. */
    figuresDigest: text('figures_digest').notNull(),
    /** SHA-256 of the figures without the issue time: the same request with nothing changed. */
    contentDigest: text('content_digest'),
    /** SHA-256 of the figures without the issue time and the customer's rate: the record they were drawn from. */
    recordDigest: text('record_digest'),
    pdf: blob('pdf', { mode: 'buffer' }),
    pdfSha256: text('pdf_sha256').notNull(),
    /** The number of the document issued after the record changed. */
    supersededBy: text('superseded_by'),
    supersededMs: integer('superseded_ms'),
    deletedMs: integer('deleted_ms'),
  },
  (table) => [
    uniqueIndex('drying_documents_number').on(table.number),
    index('drying_documents_enquiry').on(table.enquiryId, table.kind, table.sequence),
  ],
);

/** Migration 0026: an insurer, loss adjuster or network that instructs the company. */
export const organisations = sqliteTable(
  'organisations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    /** JSON of its own response standards (lib/portfolio/), or NULL for the company's published ones. */
    standards: text('standards'),
    createdMs: integer('created_ms').notNull(),
    updatedMs: integer('updated_ms').notNull(),
    /** Migration 0029: while set, its links and sessions open nothing and no link can be asked for. */
    suspendedMs: integer('suspended_ms'),
  },
  (table) => [uniqueIndex('organisations_name').on(table.name)],
);

/** Migration 0026: the e-mail domains an organisation's instructions come from, lower-case; one organisation each. */
export const organisationDomains = sqliteTable(
  'organisation_domains',
  {
    domain: text('domain').primaryKey(),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id),
  },
  (table) => [index('organisation_domains_organisation').on(table.organisationId)],
);

/** Migration 0026: a person given a portfolio link (NULL e-mail: a link the operator printed for the office). */
export const organisationPeople = sqliteTable(
  'organisation_people',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id),
    email: text('email'),
    /** The address as compared (server/base/email-key.ts). */
    emailKey: text('email_key'),
    createdMs: integer('created_ms').notNull(),
    /** When one of their sessions was last used (retention counts from it). */
    lastUsedMs: integer('last_used_ms'),
    revokedMs: integer('revoked_ms'),
  },
  (table) => [uniqueIndex('organisation_people_email').on(table.organisationId, table.emailKey)],
);

/**
 * Migration 0029: a portfolio link e-mailed or printed, for one opening within 24 hours; its token only
 * as a SHA-256. Migration 0030: an e-mailed link is for an address at its organisation (`email`), its
 * person made when it is first opened; a printed link names its person from the start.
 */
export const portfolioLinks = sqliteTable(
  'portfolio_links',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    personId: integer('person_id').references(() => organisationPeople.id, { onDelete: 'cascade' }),
    email: text('email'),
    /** The address as compared (server/base/email-key.ts). */
    emailKey: text('email_key'),
    tokenHash: text('token_hash').notNull(),
    createdMs: integer('created_ms').notNull(),
    usedMs: integer('used_ms'),
  },
  (table) => [
    uniqueIndex('portfolio_links_token').on(table.tokenHash),
    index('portfolio_links_person').on(table.personId),
    index('portfolio_links_address').on(table.organisationId, table.emailKey),
  ],
);

/** Migration 0029: a browser signed in to a portfolio by opening a link; its cookie's token only as a SHA-256. */
export const portfolioSessions = sqliteTable(
  'portfolio_sessions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    personId: integer('person_id')
      .notNull()
      .references(() => organisationPeople.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdMs: integer('created_ms').notNull(),
    lastUsedMs: integer('last_used_ms').notNull(),
    /** The browser's family as its User-Agent names it ("Firefox", "Safari" …), for `--log`. */
    browser: text('browser').notNull(),
  },
  (table) => [
    uniqueIndex('portfolio_sessions_token').on(table.tokenHash),
    index('portfolio_sessions_person').on(table.personId, table.lastUsedMs),
  ],
);

export const PORTFOLIO_ACTIONS = ['link-sent', 'opened', 'viewed', 'downloaded', 'revoked', 'signed-out'] as const;

/** Migration 0026: who opened or downloaded an organisation's portfolio, and when. */
export const portfolioAccessLog = sqliteTable(
  'portfolio_access_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id),
    personId: integer('person_id').references(() => organisationPeople.id),
    action: text('action', { enum: PORTFOLIO_ACTIONS }).notNull(),
    /** What was asked for: the filters of a view or a download. */
    detail: text('detail'),
    atMs: integer('at_ms').notNull(),
  },
  (table) => [index('portfolio_access_log_organisation').on(table.organisationId, table.atMs)],
);

/** What became of a link asked for: waiting, e-mailed, declined by the worker (nothing sent), or failed. */
export const LINK_MAIL_STATUSES = ['pending', 'sent', 'declined', 'failed'] as const;

/**
 * Migration 0027: an e-mail of a portfolio link, asked for on /insurers; a job of its own worker.
 * Migration 0030: the job holds the address as typed, and the worker decides whether it gets a link
 * (registered, not suspended or revoked, within the budgets); a declined job keeps no address.
 */
export const portfolioLinkMails = sqliteTable(
  'portfolio_link_mails',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    email: text('email').notNull(),
    /** The mailbox as the budgets count it (server/portfolio/link-request.ts `mailboxKey`). */
    mailbox: text('mailbox').notNull(),
    domain: text('domain').notNull(),
    /** The organisation whose link was sent, once sent. */
    organisationId: integer('organisation_id').references(() => organisations.id, { onDelete: 'cascade' }),
    ...leaseColumns(text('status', { enum: LINK_MAIL_STATUSES }).notNull()),
    createdMs: integer('created_ms').notNull(),
    sentAt: text('sent_at'),
    messageId: text('message_id'),
  },
  (table) => [
    dueIndex('portfolio_link_mails', table),
    index('portfolio_link_mails_mailbox').on(table.mailbox, table.status, table.createdMs),
    index('portfolio_link_mails_sent').on(table.status, table.createdMs),
  ],
);

/** Migration 0031: the visits a survey window takes from a date on (null window: both); the latest that applies wins. */
export const surveyCapacity = sqliteTable(
  'survey_capacity',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    fromDate: text('from_date').notNull(),
    window: text('window', { enum: ['am', 'pm'] }),
    capacity: integer('capacity').notNull(),
    source: text('source', { enum: ['operator', 'crm'] }).notNull(),
    setMs: integer('set_ms').notNull(),
    /** Migration 0033: the CRM event that set it (`appointments.capacity`), applied once. */
    eventId: text('event_id'),
  },
  (table) => [index('survey_capacity_from').on(table.fromDate), uniqueIndex('survey_capacity_event').on(table.eventId)],
);

/** Migration 0031: a day, or one window of it (null: both), the company does not offer for surveys. */
export const surveyBlocks = sqliteTable(
  'survey_blocks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    date: text('date').notNull(),
    window: text('window', { enum: ['am', 'pm'] }),
    reason: text('reason').notNull(),
    source: text('source', { enum: ['operator', 'crm'] }).notNull(),
    createdMs: integer('created_ms').notNull(),
    /** Migration 0033: the CRM event that made it (`appointments.blocked`), applied once. */
    eventId: text('event_id'),
  },
  (table) => [index('survey_blocks_date').on(table.date), uniqueIndex('survey_blocks_event').on(table.eventId)],
);

export const SURVEY_APPOINTMENT_STATUSES = ['booked', 'cancelled', 'no-access'] as const;

/** Migration 0031: a survey visit booked in a window; one booked a claim at a time. */
export const surveyAppointments = sqliteTable(
  'survey_appointments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    enquiryId: integer('enquiry_id')
      .notNull()
      .references(() => enquiries.id, { onDelete: 'cascade' }),
    /** The iCalendar UID, the appointment's for its whole life. */
    uid: text('uid').notNull(),
    date: text('date').notNull(),
    window: text('window', { enum: ['am', 'pm'] }).notNull(),
    status: text('status', { enum: SURVEY_APPOINTMENT_STATUSES }).notNull(),
    /** The iCalendar SEQUENCE: raised on every change. */
    sequence: integer('sequence').notNull().default(0),
    /** How often the homeowner moved it: at most SURVEY_MOVES_MAX, then the phone. */
    moves: integer('moves').notNull().default(0),
    bookedBy: text('booked_by', { enum: ['customer', 'staff', 'crm'] }).notNull(),
    /** The booking form's token: a form books once. */
    formToken: text('form_token'),
    createdMs: integer('created_ms').notNull(),
    updatedMs: integer('updated_ms').notNull(),
  },
  (table) => [
    uniqueIndex('survey_appointments_booked')
      .on(table.enquiryId)
      .where(sql`${table.status} = 'booked'`),
    uniqueIndex('survey_appointments_form_token').on(table.formToken),
    index('survey_appointments_window').on(table.date, table.window, table.status),
  ],
);

export const SURVEY_APPOINTMENT_ACTIONS = ['booked', 'moved', 'cancelled', 'no-access'] as const;
export type SurveyAppointmentAction = (typeof SURVEY_APPOINTMENT_ACTIONS)[number];

/** Migration 0033: each change of a survey visit, with the window and SEQUENCE it left it at and who made it. */
export const surveyAppointmentChanges = sqliteTable(
  'survey_appointment_changes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    appointmentId: integer('appointment_id')
      .notNull()
      .references(() => surveyAppointments.id),
    enquiryId: integer('enquiry_id')
      .notNull()
      .references(() => enquiries.id),
    action: text('action', { enum: SURVEY_APPOINTMENT_ACTIONS }).notNull(),
    date: text('date').notNull(),
    window: text('window', { enum: ['am', 'pm'] }).notNull(),
    sequence: integer('sequence').notNull(),
    madeBy: text('made_by', { enum: ['customer', 'staff', 'crm'] }).notNull(),
    changedMs: integer('changed_ms').notNull(),
  },
  (table) => [
    index('survey_appointment_changes_enquiry').on(table.enquiryId),
    index('survey_appointment_changes_time').on(table.changedMs),
  ],
);

export const schema = {
  errorLogs,
  enquiries,
  enquiryNotifications,
  enquiryPhotos,
  digests,
  claimStageChanges,
  claimLinkUses,
  webhookEvents,
  siteSecrets,
  dryingVisits,
  dryingReadings,
  dryingEquipment,
  dryingDocuments,
  organisations,
  organisationDomains,
  organisationPeople,
  portfolioAccessLog,
  portfolioLinkMails,
  portfolioLinks,
  portfolioSessions,
  surveyCapacity,
  surveyBlocks,
  surveyAppointments,
  surveyAppointmentChanges,
};
