<?php
// Runs the validator test cases of klevu/php-sdk (its tests/Unit/Validator/Indexing) through the
// SDK's own validators and prints, for each case, the body that value would be on the wire and
// whether the SDK accepts it, as JSON lines. Called by scripts/indexing-parity.sh with the
// extracted SDK's directory; PHPUnit is not needed: its TestCase is a stand-in and the data
// providers and #[TestWith] attributes are read by reflection.
declare(strict_types=1);

namespace PHPUnit\Framework {
    abstract class TestCase {}
}

namespace {
    $sdk = $argv[1];
    spl_autoload_register(function (string $class) use ($sdk): void {
        foreach (['Klevu\\PhpSDK\\Test\\' => "$sdk/tests/", 'Klevu\\PhpSDK\\' => "$sdk/src/"] as $prefix => $dir) {
            if (str_starts_with($class, $prefix)) {
                $file = $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
                if (is_file($file)) {
                    require $file;
                }
                return;
            }
        }
    });

    use Klevu\PhpSDK\Model\Indexing\Attribute;
    use Klevu\PhpSDK\Model\Indexing\Record;
    use Klevu\PhpSDK\Model\Indexing\Update;

    // The same PHP value after a trip through JSON: otherwise the case is not on the wire.
    function on_wire(mixed $v): bool
    {
        $json = json_encode($v);
        return $json !== false && json_decode($json, true) === $v;
    }

    function record_payload(Record $r): array
    {
        $out = ['id' => $r->getId(), 'type' => $r->getType()];
        if (null !== $r->getRelations()) { $out['relations'] = $r->getRelations(); }
        $out['attributes'] = $r->getAttributes();
        if (null !== $r->getGroups()) { $out['groups'] = $r->getGroups(); }
        if (null !== $r->getChannels()) { $out['channels'] = $r->getChannels(); }
        return $out;
    }

    // [kind, body value, focus pointer] for a validator's input, or a reason it has no wire form.
    function wire(string $validator, mixed $v): array|string
    {
        $record = fn (string $field): array => [['id' => 'x', 'type' => 'KLEVU_CMS', $field => $v]];
        $named = function (string $field) use ($v): array|string {
            if (!is_int($v) && !is_string($v) && null !== $v) {
                return 'a ' . get_debug_type($v) . ' cannot be a JSON object key';
            }
            $rows = [$v => ['attributes' => []]];
            $key = array_key_first($rows);
            if ($key !== $v && !(null === $v && '' === $key)) {
                return 'PHP makes the key ' . var_export($key, true) . ' of it';
            }
            return ['records', [['id' => 'x', 'type' => 'KLEVU_CMS', 'attributes' => [], $field => $rows]], '/0/' . $field];
        };
        switch ($validator) {
            case 'Delete': return ['delete', ['ids' => [$v]], '/ids'];
            case 'IdValidator': return ['records', [['id' => $v, 'type' => 'KLEVU_CMS', 'attributes' => []]], '/0/id'];
            case 'TypeValidator': return ['records', [['id' => 'x', 'type' => $v, 'attributes' => []]], '/0/type'];
            case 'RelationsValidator': return ['records', $record('relations'), '/0/relations'];
            case 'AttributesValidator': return ['records', $record('attributes'), '/0/attributes'];
            case 'GroupsValidator': return ['records', $record('groups'), '/0/groups'];
            case 'ChannelsValidator': return ['records', $record('channels'), '/0/channels'];
            case 'AttributeNameValidator': return ['attribute', ['attributeName' => $v, 'datatype' => 'STRING'], '/attributeName'];
            case 'GroupNameValidator': return $named('groups');
            case 'ChannelNameValidator': return $named('channels');
            case 'RecordValidator':
                return $v instanceof Record ? ['records', [record_payload($v)], '/0'] : 'not a Record: the SDK never sends it';
            case 'UpdateValidator':
                if (!$v instanceof Update) { return 'not an Update: the SDK never sends it'; }
                $op = ['op' => $v->getOp()];
                if (null !== $v->getPath()) { $op['path'] = $v->getPath(); }
                $op['value'] = $v->getValue();
                return ['updates', [$v->getRecordId() => [$op]], ''];
            case 'AttributeValidator':
                return $v instanceof Attribute ? ['attribute', $v->toArray(), ''] : 'not an Attribute: the SDK never sends it';
        }
        return "no wire form for $validator";
    }

    // The input a test method gives its validator (AttributeValidator's tests build the attribute
    // from a string).
    function input_of(string $validator, string $method, mixed $data): mixed
    {
        if ('AttributeValidator' !== $validator || !is_string($data)) {
            return $data;
        }
        return str_contains($method, 'AttributeName')
            ? new Attribute(attributeName: $data, datatype: 'STRING')
            : new Attribute(attributeName: 'test_attribute', datatype: $data);
    }

    function cases_of(ReflectionMethod $m, string $class): array
    {
        $cases = [];
        foreach ($m->getAttributes('PHPUnit\\Framework\\Attributes\\DataProvider') as $a) {
            foreach ($class::{$a->getArguments()[0]}() as $k => $args) { $cases[(string)$k] = $args; }
        }
        foreach ($m->getAttributes('PHPUnit\\Framework\\Attributes\\TestWith') as $i => $a) {
            $cases["with #$i"] = $a->getArguments()[0];
        }
        return $cases;
    }

    function update(string $recordId, string $op, string $path, mixed $value = null): Update
    {
        $u = new Update();
        $u->setRecordId($recordId);
        $u->setOp($op);
        $u->setPath($path);
        $u->setValue($value);
        return $u;
    }

    // Shapes a real shop sends, beyond the SDK's own cases: each given the SDK's answer.
    function held_out(): array
    {
        $product = fn (string $id, array $more = []): Record => new Record(
            id: $id,
            type: 'KLEVU_PRODUCT',
            attributes: $more + ['name' => ['default' => 'Shoe'], 'sku' => $id, 'url' => 'https://shop.example/p', 'prices' => [['amount' => 9.5, 'currency' => 'EUR', 'type' => 'defaultPrice']], 'visibility' => ['search', 'catalog']],
        );
        return [
            'product' => ['RecordValidator', $product('10023')],
            'variant of a product' => ['RecordValidator', new Record(id: '10023-BLK-42', type: 'KLEVU_PRODUCT', relations: ['parentProduct' => ['values' => ['10023']]], attributes: ['name' => ['default' => 'Shoe, black, 42'], 'sku' => '10023-BLK-42'])],
            'product with channels' => ['RecordValidator', new Record(id: 'p1', type: 'KLEVU_PRODUCT', attributes: ['name' => ['default' => 'Shoe']], channels: ['b2b_shop' => ['attributes' => ['name' => ['default' => 'Shoe (trade)']], 'groups' => ['trade_1' => ['attributes' => ['prices' => []]]]]])],
            'product with groups' => ['RecordValidator', new Record(id: 'p1', type: 'KLEVU_PRODUCT', attributes: ['sku' => 'p1'], groups: ['wholesale' => ['attributes' => ['prices' => []]]])],
            'category' => ['RecordValidator', new Record(id: 'cat-mens-shoes', type: 'KLEVU_CATEGORY', attributes: ['name' => ['default' => 'Mens shoes'], 'url' => 'https://shop.example/c/mens-shoes'])],
            'CMS page' => ['RecordValidator', new Record(id: 'cms-about', type: 'KLEVU_CMS', attributes: ['name' => ['default' => 'About us'], 'description' => ['default' => 'Who we are']])],
            'attribute name with a hyphen' => ['RecordValidator', $product('p2', ['colour-code' => 'BLK'])],
            'attribute name ending in an underscore' => ['RecordValidator', $product('p3', ['colour_' => 'BLK'])],
            'channel name with a space' => ['RecordValidator', new Record(id: 'p5', type: 'KLEVU_PRODUCT', attributes: [], channels: ['b2b shop' => ['attributes' => []]])],
            'group data not an object' => ['RecordValidator', new Record(id: 'p6', type: 'KLEVU_PRODUCT', attributes: [], groups: ['trade' => 'yes'])],
            'empty type' => ['RecordValidator', new Record(id: 'p7', type: ' ', attributes: [])],
            'delete by id' => ['IdValidator', '10023-BLK-42', 'Delete'],
            'delete with an empty id' => ['IdValidator', '', 'Delete'],
            'partial update, replace' => ['UpdateValidator', update('10023', 'replace', '/attributes/name/default', 'Trail shoe')],
            'partial update, remove' => ['UpdateValidator', update('10023', 'remove', '/attributes/rating')],
            'partial update, unknown op' => ['UpdateValidator', update('10023', 'upsert', '/attributes/name', 'x')],
            'partial update, path with a space' => ['UpdateValidator', update('10023', 'add', '/attributes/my name', 'x')],
            'partial update, path with ~1' => ['UpdateValidator', update('10023', 'add', '/attributes/a~1b', 'x')],
            'partial update, root path' => ['UpdateValidator', update('10023', 'replace', '', [])],
            'custom attribute, multivalue' => ['AttributeValidator', new Attribute(attributeName: 'colour_family', datatype: 'MULTIVALUE')],
            'custom attribute, JSON' => ['AttributeValidator', new Attribute(attributeName: 'specs', datatype: 'JSON')],
            'core attribute, JSON' => ['AttributeValidator', new Attribute(attributeName: 'specs', datatype: 'JSON', immutable: true)],
        ];
    }

    $files = glob("$sdk/tests/Unit/Validator/Indexing/{,Record/}*Test.php", GLOB_BRACE);
    sort($files);
    $suites = [];
    foreach (held_out() as $name => $c) {
        $suites[] = [$c[0], 'held-out', $name, $c[1], $c[2] ?? $c[0]];
    }
    foreach ($files as $file) {
        $rel = substr($file, strlen("$sdk/tests/"), -4);
        $class = 'Klevu\\PhpSDK\\Test\\' . str_replace('/', '\\', $rel);
        $reflection = new ReflectionClass($class);
        $covers = $reflection->getAttributes('PHPUnit\\Framework\\Attributes\\CoversClass')[0]->getArguments()[0];
        $validator = substr($covers, strrpos($covers, '\\') + 1);
        foreach ($reflection->getMethods() as $m) {
            // Injected or constructed validators test the SDK's wiring, not a body.
            if (!str_starts_with($m->name, 'test') || str_contains($m->name, 'Inject') || str_contains($m->name, 'Construct')) {
                continue;
            }
            foreach (cases_of($m, $class) as $k => $args) {
                try {
                    $suites[] = [$validator, $m->name, $k, input_of($validator, $m->name, $args[0]), $validator];
                } catch (Throwable $e) {
                    $case = ['validator' => $validator, 'test' => $m->name, 'case' => $k];
                    echo json_encode($case + ['skipped' => 'the model refuses it: ' . get_class($e)]), "\n";
                }
            }
        }
    }
    foreach ($suites as [$validator, $test, $k, $input, $wireAs]) {
                $covers = 'Klevu\\PhpSDK\\Validator\\Indexing\\' . (in_array($validator, ['IdValidator', 'TypeValidator', 'RelationsValidator', 'AttributesValidator', 'GroupsValidator', 'ChannelsValidator'], true) ? 'Record\\' : '') . $validator;
                $case = ['validator' => $validator, 'test' => $test, 'case' => $k];
                try {
                    (new $covers())->execute($input);
                    $case += ['accepted' => true, 'errors' => []];
                } catch (Klevu\PhpSDK\Exception\ValidationException $e) {
                    $case += ['accepted' => false, 'errors' => array_values($e->getErrors())];
                }
                $w = wire($wireAs, $input);
                if (is_string($w)) {
                    $case['skipped'] = $w;
                } elseif (!on_wire($w[1])) {
                    $case['skipped'] = 'json_encode changes the value (' . get_debug_type($input) . ')';
                } else {
                    $case += ['kind' => $w[0], 'focus' => $w[2], 'body' => json_encode($w[1])];
                }
                echo json_encode($case, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
    }
}
