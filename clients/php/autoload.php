<?php

// For use without Composer: `require 'path/to/clients/php/autoload.php';` loads Innkeep\… classes
// from src/ (PSR-4), as Composer's autoloader would.

declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    if (!str_starts_with($class, 'Innkeep\\')) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen('Innkeep\\'))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
