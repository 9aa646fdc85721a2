import Foundation

/// Garmin's FIT binary format, as much of it as an activity file needs: the
/// 14-byte header, definition and data messages of little-endian fields, and
/// the CRC-16 that closes the header and the file (the FIT protocol, 2.0).
struct FITEncoder {
    /// FIT's base types, by the byte a definition names them with.
    enum BaseType: UInt8 {
        case enumeration = 0x00
        case uint8 = 0x02
        case uint16 = 0x84
        case uint32 = 0x86
        case uint32z = 0x8C

        var size: Int {
            switch self {
            case .enumeration, .uint8: 1
            case .uint16: 2
            case .uint32, .uint32z: 4
            }
        }

        /// The value that means "no value" for the type.
        var invalid: UInt64 {
            switch self {
            case .enumeration, .uint8: 0xFF
            case .uint16: 0xFFFF
            case .uint32: 0xFFFF_FFFF
            case .uint32z: 0
            }
        }
    }

    /// One field of a message: its number in Garmin's profile, its type and how many values (an array field).
    struct Field {
        var number: UInt8
        var type: BaseType
        var count = 1
    }

    /// A message type as a definition declares it: the profile's global number and its fields.
    struct Definition {
        var globalNumber: UInt16
        var fields: [Field]
    }

    /// FIT counts time from 1989-12-31T00:00:00Z.
    static let epochOffsetSeconds: Int64 = 631_065_600
    static let profileVersion: UInt16 = 21_218

    private var records: [UInt8] = []
    /// Which local message number (0…15) holds which definition.
    private var defined: [Int: Definition] = [:]
    private var localNumbers: [UInt16: Int] = [:]

    /// A data message; its definition is written first the first time the message type appears.
    /// `values` are in the order of the definition's fields, one per value of an array field; nil is "no value".
    mutating func write(_ definition: Definition, _ values: [UInt64?]) {
        let local: Int
        if let known = localNumbers[definition.globalNumber] {
            local = known
        } else {
            local = localNumbers.count
            precondition(local < 16, "a FIT file of more than 16 message types needs redefinitions")
            localNumbers[definition.globalNumber] = local
            defined[local] = definition
            records.append(0x40 | UInt8(local))
            records += [0, 0]  // reserved; little-endian
            append(UInt64(definition.globalNumber), size: 2)
            records.append(UInt8(definition.fields.count))
            for f in definition.fields { records += [f.number, UInt8(f.type.size * f.count), f.type.rawValue] }
        }
        records.append(UInt8(local))
        var i = 0
        for f in definition.fields {
            for _ in 0..<f.count {
                append(values[i] ?? f.type.invalid, size: f.type.size)
                i += 1
            }
        }
        precondition(i == values.count, "a FIT message's values do not match its definition")
    }

    private mutating func append(_ value: UInt64, size: Int) {
        for byte in 0..<size { records.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte)))) }
    }

    /// The whole file: header with its CRC, the records, the file's CRC.
    var bytes: [UInt8] {
        var header: [UInt8] = [14, 0x20]
        header += [UInt8(Self.profileVersion & 0xFF), UInt8(Self.profileVersion >> 8)]
        let size = UInt32(records.count)
        header += (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * UInt32($0))) }
        header += Array(".FIT".utf8)
        let headerCRC = Self.crc(header)
        header += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
        var file = header + records
        let crc = Self.crc(file)
        file += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        return file
    }

    /// The FIT SDK's CRC-16, four bits at a time.
    static func crc(_ bytes: [UInt8]) -> UInt16 {
        let table: [UInt16] = [
            0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401, 0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
        ]
        var crc: UInt16 = 0
        for byte in bytes {
            var tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte & 0xF)]
            tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte >> 4)]
        }
        return crc
    }

    /// A time as FIT writes it: whole seconds since its epoch.
    static func time(_ millis: Int64) -> UInt64 { UInt64(max(0, millis / 1000 - epochOffsetSeconds)) }
}
