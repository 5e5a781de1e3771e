// PyPI, Maven Central, Go module proxy and Packagist fixtures, shaped like the real answers (trimmed).
const release = (t: string) => [
  { filename: "x.whl", packagetype: "bdist_wheel", upload_time_iso_8601: t, yanked: false },
];

export const PYPI_PROJECTS: Record<string, unknown> = {
  jinja2: {
    info: {
      name: "Jinja2",
      version: "3.1.4",
      summary: "A very fast and expressive template engine.",
      license: "BSD-3-Clause",
      license_expression: null,
      classifiers: ["License :: OSI Approved :: BSD License"],
      home_page: null,
      project_urls: {
        Documentation: "https://jinja.palletsprojects.com/",
        Source: "https://github.com/pallets/jinja/",
      },
    },
    releases: {
      "2.10": release("2017-11-08T00:00:00.000000Z"),
      "2.10.1": release("2019-04-06T00:00:00.000000Z"),
      "2.11.3": release("2021-01-31T00:00:00.000000Z"),
      "3.0.0rc1": release("2021-04-16T00:00:00.000000Z"),
      "3.0.0": release("2021-05-11T00:00:00.000000Z"),
      "3.1.3": release("2024-01-10T00:00:00.000000Z"),
      "3.1.4": release("2024-05-05T00:00:00.000000Z"),
    },
  },
  // The dependency scan's PyPI fixtures: a release with only a source archive (setup.py runs on install) and a
  // yanked release.
  eggsample: {
    info: {
      name: "eggsample",
      version: "1.1",
      summary: "Sample eggs",
      license: "MIT",
      project_urls: { Source: "https://github.com/example/eggsample" },
    },
    releases: {
      "0.9": [{ filename: "eggsample-0.9.tar.gz", packagetype: "sdist", upload_time_iso_8601: "2025-03-01T00:00:00Z" }],
      "1.0": [
        {
          filename: "eggsample-1.0-py3-none-any.whl",
          packagetype: "bdist_wheel",
          upload_time_iso_8601: "2025-04-01T00:00:00Z",
          yanked: true,
          yanked_reason: "Broken build",
        },
      ],
      "1.1": release("2025-05-01T00:00:00Z"),
    },
  },
};

export const MAVEN_METADATA: Record<string, string> = {
  "org/apache/logging/log4j/log4j-core": `<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <groupId>org.apache.logging.log4j</groupId>
  <artifactId>log4j-core</artifactId>
  <versioning>
    <latest>2.17.1</latest>
    <release>2.17.1</release>
    <versions>
      <version>2.0-beta9</version>
      <version>2.0-rc1</version>
      <version>2.0</version>
      <version>2.3.1</version>
      <version>2.12.1</version>
      <version>2.14.1</version>
      <version>2.15.0</version>
      <version>2.16.0</version>
      <version>2.17.1</version>
    </versions>
    <lastUpdated>20211228000000</lastUpdated>
  </versioning>
</metadata>`,
};

export const MAVEN_POMS: Record<string, string> = {
  "org/apache/logging/log4j/log4j-core/2.17.1/log4j-core-2.17.1.pom": `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <parent><groupId>org.apache.logging.log4j</groupId><artifactId>log4j</artifactId><version>2.17.1</version>
    <description>Parent description must not be used</description></parent>
  <artifactId>log4j-core</artifactId>
  <name>Apache Log4j Core</name>
  <description>The Apache Log4j Implementation</description>
  <licenses><license><name>Apache License, Version 2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0.txt</url></license></licenses>
  <scm><connection>scm:git:https://gitbox.apache.org/repos/asf/logging-log4j2.git</connection><url>https://github.com/apache/logging-log4j2</url></scm>
</project>`,
};

export const GO_MODULES: Record<
  string,
  { list: string[]; latest: { Version: string; Time: string }; times: Record<string, string> }
> = {
  "github.com/gin-gonic/gin": {
    list: ["v1.9.0", "v1.9.1", "v1.10.0"],
    latest: { Version: "v1.10.0", Time: "2024-05-07T03:20:28Z" },
    times: { "v1.9.0": "2023-02-21T12:38:44Z", "v1.9.1": "2023-06-02T01:50:33Z" },
  },
  // Escaped path of github.com/BurntSushi/toml: capitals travel as "!" + lower case.
  "github.com/!burnt!sushi/toml": {
    list: ["v1.3.2"],
    latest: { Version: "v1.3.2", Time: "2023-06-08T06:28:57Z" },
    times: {},
  },
};

// Composer v2 "minified" metadata: each entry holds only what changed from the one before.
export const PACKAGIST: Record<string, unknown> = {
  "craftcms/cms": {
    minified: "composer/2.0",
    packages: {
      "craftcms/cms": [
        {
          name: "craftcms/cms",
          description: "Craft CMS",
          version: "5.5.8",
          version_normalized: "5.5.8.0",
          license: ["proprietary"],
          source: { type: "git", url: "https://github.com/craftcms/cms.git", reference: "abc" },
          time: "2025-01-07T00:00:00+00:00",
        },
        { version: "5.5.7", version_normalized: "5.5.7.0", time: "2024-12-18T00:00:00+00:00" },
        {
          version: "5.0.0-RC1",
          version_normalized: "5.0.0.0-RC1",
          time: "2024-03-01T00:00:00+00:00",
          description: "__unset",
        },
        {
          version: "4.13.7",
          version_normalized: "4.13.7.0",
          time: "2024-12-17T00:00:00+00:00",
          description: "Craft CMS 4",
        },
      ],
    },
  },
};
