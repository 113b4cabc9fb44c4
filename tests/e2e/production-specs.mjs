// The specs that run against the production-configuration build (playwright.config.ts project
// 'production-config'); every other spec runs against the test build. The two builds' specs run side by
// side, so the pages' own specs (axe, navigation, dialogs, each route), which need nothing of the test
// build, run here too, where they also see the site as it is deployed. js-budget.spec.ts runs with the
// test build's specs but measures the production-configuration build.
export const productionSpecs =
  /\/(?:[a-z-]*journeys|shutdown|[a-z-]*engines|digest|portfolio-request|production-build|accessibility|navigation|dialogs|pages)\.spec\.ts$/;
export const specsReadingProductionBuild = /\/js-budget\.spec\.ts$/;
/**
 * Specs of the test build that start servers of their own (their own ports, data folder and database)
 * and steer nothing the build's shared server, data or fake CRM holds: they run in a worker of their
 * own beside the other two ('own-servers' in playwright.config.ts). The site behind the proxies spends
 * much of its time waiting on slow uploads, which the CPUs can give to the other workers.
 */
export const ownServerSpecs = /\/(?:reverse-proxy|build-settings|survey-calendar)\.spec\.ts$/;
