<?php

declare(strict_types=1);

namespace Innkeep\Tests;

use PHPUnit\Framework\TestCase;

/**
 * The checked-in generated files are what scripts/generate.php writes from the served document
 * (INNKEEP_OPENAPI when set, as clients/check.sh sets it; else `npm run openapi`).
 */
final class GeneratedTest extends TestCase
{
    public function testGeneratedFilesMatchTheServedDocument(): void
    {
        $root = dirname(__DIR__);
        $out = sys_get_temp_dir() . '/innkeep-php-generated-' . bin2hex(random_bytes(4));
        $document = getenv('INNKEEP_OPENAPI') ?: '';
        $command = 'php ' . escapeshellarg("$root/scripts/generate.php") . ($document !== '' ? ' ' . escapeshellarg($document) : '') . ' --out ' . escapeshellarg($out);
        exec($command . ' 2>&1', $output, $status);
        self::assertSame(0, $status, implode("\n", $output));
        try {
            $files = array_merge(glob("$out/Generated/*.php"), glob("$out/Service/*.php"));
            self::assertGreaterThan(10, count($files));
            foreach ($files as $file) {
                $relative = substr($file, strlen($out) + 1);
                self::assertFileEquals($file, "$root/src/$relative", "src/$relative drifted from the document: run php scripts/generate.php");
            }
            $checkedIn = array_merge(glob("$root/src/Generated/*.php"), glob("$root/src/Service/*.php"));
            $generated = array_map(fn ($f) => substr($f, strlen($out) + 1), $files);
            foreach ($checkedIn as $file) {
                $relative = substr($file, strlen("$root/src") + 1);
                if ($relative !== 'Service/AbstractService.php') {
                    self::assertContains($relative, $generated, "src/$relative is no longer generated: remove it");
                }
            }
        } finally {
            exec('rm -rf ' . escapeshellarg($out));
        }
    }
}
