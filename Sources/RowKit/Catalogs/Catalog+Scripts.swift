import Foundation

extension Catalog {
  /// A name and a short message in each of the world's major scripts, as a contacts list
  /// shows them: what `rowkit catalog --scripts` draws. Every character must be drawn by one
  /// of RowKit's fonts; a box on this page is a missing font.
  public static let scriptSamples: [(script: String, name: String, message: String)] = [
    ("Latin (Vietnamese)", "Nguyễn Thị Hương", "Hẹn gặp lại bạn vào ngày mai nhé!"),
    ("Greek", "Γιώργος Παπαδόπουλος", "Τα λέμε αύριο στο γραφείο."),
    ("Cyrillic", "Анна Иванова", "Увидимся завтра в десять утра."),
    ("Armenian", "Արամ Խաչատրյան", "Կհանդիպենք վաղը առավոտյան։"),
    ("Georgian", "ნინო ბერიძე", "გმადლობთ, ხვალ შევხვდებით!"),
    ("Hebrew", "נועה כהן", "נתראה מחר בבוקר בבית הקפה."),
    ("Arabic", "محمد العلي", "أراك غداً في الاجتماع إن شاء الله."),
    ("Persian", "سارا محمدی", "فردا ساعت ده همدیگر را می‌بینیم."),
    ("Devanagari (Hindi)", "अनन्या शर्मा", "क्या आप कल की बैठक में आएँगे?"),
    ("Bengali", "সৌরভ গাঙ্গুলী", "আজ বিকেলে দেখা হবে, ঠিক আছে?"),
    ("Gurmukhi (Punjabi)", "ਹਰਪ੍ਰੀਤ ਸਿੰਘ", "ਕੱਲ੍ਹ ਮਿਲਦੇ ਹਾਂ!"),
    ("Gujarati", "જય પટેલ", "કાલે મળીએ, આભાર!"),
    ("Tamil", "கார்த்திக் ராஜா", "நாளை காலை சந்திப்போம்."),
    ("Telugu", "శ్రీనివాస్ రెడ్డి", "మీరు ఎలా ఉన్నారు?"),
    ("Kannada", "ಅಕ್ಷತಾ ರಾವ್", "ನಾಳೆ ಭೇಟಿಯಾಗೋಣ."),
    ("Malayalam", "അനു മാത്യു", "നാളെ കാണാം, നന്ദി!"),
    ("Sinhala", "නිමල් පෙරේරා", "හෙට හමුවෙමු."),
    ("Thai", "สมชาย ใจดี", "ขอบคุณมากครับ แล้วพบกันใหม่"),
    ("Lao", "ສົມສັກ ວົງສະຫວັນ", "ແລ້ວພົບກັນໃໝ່"),
    ("Khmer", "សុខ ចាន់ធា", "ជួបគ្នាថ្ងៃស្អែក"),
    ("Myanmar", "အောင်ကိုကို", "မနက်ဖြန် တွေ့ကြမယ်"),
    ("Tibetan", "བསོད་ནམས་རྒྱལ་པོ", "སང་ཉིན་མཇལ་ཡོང་།"),
    ("Ethiopic (Amharic)", "አበበ ቢቂላ", "እንኳን ደስ አለዎት! ነገ እንገናኝ።"),
    ("Han (Simplified Chinese)", "王小明", "明天下午三点开会，别忘了带电脑。"),
    ("Han (Traditional Chinese)", "陳美玲", "謝謝你的幫忙，週末一起吃飯吧！"),
    ("Japanese", "山田花子", "今日はありがとうございました。また会いましょう！"),
    ("Hangul (Korean)", "김민준", "내일 아침에 전화할게요. 좋은 밤 되세요!"),
    ("Emoji", "Emoji 🎉", "👍🏽 Sounds good! 👨‍👩‍👧 dinner at 7 🍝 🇯🇵 🇧🇷 ❤️"),
    ("Mixed directions", "Omar عمر", "Meeting with محمد at 10:00, then נועה at 11."),
    ("Mixed Latin, CJK and emoji", "Trip ✈️ 東京", "Tokyo 東京 and Seoul 서울 next week 🗾🙂"),
  ]

  /// The scripts page: one subtitle row per script, its name and message.
  public static func scriptsDataSource() -> SectionedDataSource {
    SectionedDataSource(sections: [
      TableSection(
        header: "Scripts", footer: "Every script in its own font; emoji in color",
        items: scriptSamples.map { sample in
          SubtitleItem(text: sample.name, subtitle: sample.message + "  · " + sample.script)
        })
    ])
  }
}
