// The specs that run against the production-configuration build (playwright.config.ts project
// 'production-config'); every other spec runs against the test build. The two builds' specs run side by
// side, so the pages' own specs (axe, navigation, dialogs, each route), which need nothing of the test
// build, run here too, where they also see the site as it is deployed. js-budget.spec.ts runs with the
// test build's specs but measures the production-configuration build.
export const productionSpecs =
  /\/(?:[a-z-]*journeys|shutdown|[a-z-]*engines|digest|portfolio-request|production-build|accessibility|navigation|dialogs|pages)\.spec\.ts$/;
export const specsReadingProductionBuild = /\/js-budget\.spec\.ts$/;
